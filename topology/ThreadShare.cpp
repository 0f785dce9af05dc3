// Splitting n items over the team: contiguous chunks whose boundaries fall on
// multiples of `granule` items (e.g. a cache line of doubles), so no two
// threads write the same cache line and each thread's part starts aligned.
#include <algorithm>

#include "topology/Team.hpp"

namespace bws::topo {

std::pair<std::size_t, std::size_t> ThreadContext::share(std::size_t n, std::size_t granule) const {
  granule = std::max<std::size_t>(granule, 1);
  const auto threads = static_cast<std::size_t>(count_);
  const auto index = static_cast<std::size_t>(index_);
  // Whole granules are dealt out evenly, the first threads taking one extra;
  // the items after the last whole granule go to the last thread.
  const std::size_t granules = n / granule;
  const std::size_t per_thread = granules / threads;
  const std::size_t extra = granules % threads;
  const std::size_t begin = granule * (index * per_thread + std::min(index, extra));
  const std::size_t end = index + 1 == threads ? n : begin + granule * (per_thread + (index < extra ? 1 : 0));
  return {begin, end};
}

}  // namespace bws::topo
