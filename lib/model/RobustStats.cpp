#include "model/RobustStats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace bws::model {

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

double median_absolute_deviation(std::span<const double> values) {
  const double m = median_of(values);
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (double v : values) deviations.push_back(std::fabs(v - m));
  return median_of(deviations);
}

double robust_z(double value, double median, double mad) {
  const double difference = value - median;
  if (mad > 0) return difference / (kMadToSigma * mad);
  if (difference == 0) return 0;
  return difference > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
}

}  // namespace bws::model
