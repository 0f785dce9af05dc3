#pragma once
// The permutation a Perm routine walks: the cells of a thread's area hold
// addresses of cells, and following them visits every cell once before
// returning to the first, one cycle (Sattolo's algorithm). Seeded, so the
// same seed gives the same walk; the seed is recorded with the results.
#include <cstdint>
#include <vector>

namespace bws::pmbw {

// A uniformly random cyclic permutation of 0..n-1 as successor indices:
// next[i] is visited after i, and the successors form one cycle of length n.
std::vector<std::uint64_t> sattolo_cycle(std::uint64_t n, std::uint64_t seed);
// The same cycle written as pointers into cells[0..n): cells[i] holds the
// address of cells[next[i]]. Builds it in place, without a second array.
void write_pointer_cycle(std::uint64_t* cells, std::uint64_t n, std::uint64_t seed);
// Length of the cycle through cells[0] (n for a valid single cycle; stops
// after n + 1 steps or at an address outside the cells and returns 0).
std::uint64_t pointer_cycle_length(const std::uint64_t* cells, std::uint64_t n);
// The seed thread t of a point uses: the run's seed mixed with the thread.
std::uint64_t thread_seed(std::uint64_t run_seed, int thread);

}  // namespace bws::pmbw
