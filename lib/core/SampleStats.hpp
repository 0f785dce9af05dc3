#pragma once
// The one vocabulary for timed samples: their min, median, mean and max,
// and the bandwidth of bytes moved in a time. Every benchmark's results
// (and the node flags' median, model/RobustStats.hpp) use these.
#include <cstddef>
#include <span>
#include <vector>

namespace bws {

// Median of the values (mean of the middle two for an even count); NaN for none.
double median_of(std::span<const double> values);
// The upper median: the middle value, of an even count the larger of the
// two; NaN for none. Not lowered while fewer than half the values are low.
double upper_median_of(std::span<const double> values);

struct TimeStats {
  double min_seconds, median_seconds, avg_seconds, max_seconds;
};

// Over seconds[first..]: first = 1 leaves out a warm-up repetition (STREAM's
// rule). All NaN when no sample is left.
TimeStats time_stats(const std::vector<double>& seconds, std::size_t first = 0);

// bytes / seconds in B/s; infinity for a time that is not positive.
double bandwidth_Bps(double bytes, double seconds);

}  // namespace bws
