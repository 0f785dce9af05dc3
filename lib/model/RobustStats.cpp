#include "model/RobustStats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace bws::model {

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
