#pragma once
// Min, average and max of a kernel's times over repetitions 1..ntimes-1: the
// first repetition is a warm-up (page faults, cold caches), as in STREAM 5.10.
#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

namespace bws::stream {

struct TimeStats {
  double min_seconds = 0, avg_seconds = 0, max_seconds = 0;
};

inline TimeStats time_stats_after_warmup(const std::vector<double>& seconds) {
  TimeStats s;
  if (seconds.size() < 2) return s;
  s.min_seconds = std::numeric_limits<double>::infinity();
  double sum = 0;
  for (std::size_t k = 1; k < seconds.size(); ++k) {
    s.min_seconds = std::min(s.min_seconds, seconds[k]);
    s.max_seconds = std::max(s.max_seconds, seconds[k]);
    sum += seconds[k];
  }
  s.avg_seconds = sum / static_cast<double>(seconds.size() - 1);
  return s;
}

}  // namespace bws::stream
