#pragma once
// What STREAM does on the pinned Team: first-touch initialisation, the timed
// repetitions, and the validation sums. Every job splits the arrays with
// ThreadContext::share(n, granule) in whole cache lines, so each thread
// streams exactly the pages it first touched (NUMA locality).
#include <array>
#include <cstddef>
#include <functional>
#include <vector>

#include "core/RunContext.hpp"
#include "stream/StreamKernels.hpp"
#include "stream/StreamLayout.hpp"
#include "stream/StreamValidation.hpp"

namespace bws::topo {
class Team;
}

namespace bws::stream {

// Items per chunk boundary: one 64-byte cache line.
template <class T>
constexpr std::size_t share_granule() {
  return kLineBytes / sizeof(T);
}

template <class T>
StreamArrays<T> arrays_in(void* buffer, const StreamLayout& layout) {
  auto* base = static_cast<unsigned char*>(buffer);
  return {reinterpret_cast<T*>(base + layout.array_begin_bytes[0]),
          reinterpret_cast<T*>(base + layout.array_begin_bytes[1]),
          reinterpret_cast<T*>(base + layout.array_begin_bytes[2])};
}

// a=1, b=2, c=0, then a=2a (STREAM 5.10), each thread on its own share.
template <class T>
void initialize_on_team(topo::Team& team, const StreamArrays<T>& arrays, std::size_t n);

// ntimes x (Copy, Scale, Add, Triad). Before each kernel the ranks of the
// node meet (context.node_sync) and the team meets; thread 0 reads the clock
// after the team's barrier and again after the barrier that follows the
// kernel, so a sample is the time of the slowest thread. after_repetition(k)
// is called after repetition k. Returns all samples in seconds, per kernel.
template <class T>
std::array<std::vector<double>, 4> time_on_team(topo::Team& team, RunContext& context, const StreamArrays<T>& arrays,
                                                std::size_t n, int ntimes, StoreKind stores,
                                                const std::function<void(int)>& after_repetition);

// validate_stream_arrays, with each thread summing the errors of its share.
template <class T>
StreamValidation validate_on_team(topo::Team& team, const StreamArrays<T>& arrays, std::size_t n, int ntimes,
                                  const StreamValidationRule& rule);

}  // namespace bws::stream
