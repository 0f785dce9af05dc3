#include "core/SampleStats.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace bws {

double median_of(std::span<const double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::vector<double> v(values.begin(), values.end());
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double upper = v[mid];
  if (v.size() % 2 == 1) return upper;
  const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return lower + (upper - lower) / 2;
}

double upper_median_of(std::span<const double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::vector<double> v(values.begin(), values.end());
  const auto upper_middle = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), upper_middle, v.end());
  return *upper_middle;
}

TimeStats time_stats(const std::vector<double>& seconds, std::size_t first) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  if (first >= seconds.size()) return {kNaN, kNaN, kNaN, kNaN};
  const std::span<const double> kept(seconds.data() + first, seconds.size() - first);
  const auto [lowest, highest] = std::minmax_element(kept.begin(), kept.end());
  const double mean = std::accumulate(kept.begin(), kept.end(), 0.0) / static_cast<double>(kept.size());
  return {*lowest, median_of(kept), mean, *highest};
}

double bandwidth_Bps(double bytes, double seconds) {
  return seconds > 0 ? bytes / seconds : std::numeric_limits<double>::infinity();
}

}  // namespace bws
