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

// One kernel, timed: the ranks of the node meet (node_sync), then the team;
// thread 0 reads the clock after the team's barrier and again after the
// barrier that follows the kernel, so the time is the slowest thread's.
template <class T>
double time_kernel_on_team(topo::Team& team, NodeSync& node_sync, const StreamArrays<T>& arrays, std::size_t n,
                           StoreKind stores, StreamKernel kernel);

// validate_stream_arrays, with each thread summing the errors of its share.
template <class T>
StreamValidation validate_on_team(topo::Team& team, const StreamArrays<T>& arrays, std::size_t n, int reps,
                                  const StreamValidationRule& rule);

}  // namespace bws::stream
