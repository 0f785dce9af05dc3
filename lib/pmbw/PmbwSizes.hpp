#pragma once
// pmbw's array sizes and how an array is split among threads: each thread's
// area is the array divided by the threads, rounded up to whole loop
// iterations and at least one cache line; areas start at least
// 4 MiB + 16 KiB apart (pmbw's spacing, so that small areas of different
// threads neither share cache lines nor map to the same cache sets).
#include <cstdint>
#include <vector>

namespace bws::pmbw {

inline constexpr std::uint64_t kCacheLineBytes = 64;
inline constexpr std::uint64_t kMinAreaSpacingBytes = (4ull << 20) + (16ull << 10);

// pmbw's table: 1 KiB .. 768 KiB in steps of 1, 1.5 or 1.25-ish; 1 .. 3 MiB
// by 0.25; 4 .. 10 MiB by 1; 12 .. 64 MiB; then powers of two from 128 MiB,
// up to (and including) limit_bytes.
std::vector<std::uint64_t> pmbw_size_table(std::uint64_t limit_bytes);
// The table's sizes in [min_bytes, max_bytes].
std::vector<std::uint64_t> sizes_between(std::uint64_t min_bytes, std::uint64_t max_bytes);
// --quick: the table's powers of four (1, 4, 16 KiB ...) in range, and max_bytes.
std::vector<std::uint64_t> quick_sizes(std::uint64_t min_bytes, std::uint64_t max_bytes);

struct PmbwThreadLayout {
  std::uint64_t area_bytes = 0;    // the array size asked for (pmbw's areasize)
  std::uint64_t thread_bytes = 0;  // each thread's area (pmbw's threadsize)
  std::uint64_t test_bytes = 0;    // thread_bytes x threads (pmbw's testsize)
  std::uint64_t spacing_bytes = 0; // thread t's area starts at t x spacing
  std::uint64_t buffer_bytes = 0;  // what the layout needs: (threads-1) x spacing + thread_bytes
};
PmbwThreadLayout thread_layout(std::uint64_t area_bytes, int threads, std::uint64_t block_bytes);

}  // namespace bws::pmbw
