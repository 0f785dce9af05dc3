// TEMPORARY stand-in for model::find_change_points so that branch
// issue16-base links before helper "cp"'s ChangePoints.cpp lands. DELETE AT
// MERGE. Binary segmentation on medians (least absolute deviations).
#include <algorithm>
#include <cmath>

#include "model/ChangePoints.hpp"
#include "model/RobustStats.hpp"

namespace bws::model {
namespace {

double median_range(const std::vector<double>& v, std::size_t a, std::size_t b) {
  std::vector<double> part(v.begin() + a, v.begin() + b);
  return median_of(part);
}

double l1_cost(const std::vector<double>& v, std::size_t a, std::size_t b, double median) {
  double cost = 0;
  for (std::size_t i = a; i < b; ++i) cost += std::fabs(v[i] - median);
  return cost;
}

// The split of [a, b) with the least sum of absolute deviations from the
// two sides' medians, kept when the median step is > 6 robust standard
// errors and at least min_change_fraction.
void split(const std::vector<double>& v, std::size_t a, std::size_t b, const ChangePointOptions& o,
           std::vector<ChangePoint>& found) {
  const std::size_t m = std::max<std::size_t>(o.min_segment, 1);
  if (b - a < 2 * m) return;
  double best_cost = INFINITY;
  std::size_t k_best = 0;
  for (std::size_t k = a + m; k + m <= b; ++k) {
    const double cost = l1_cost(v, a, k, median_range(v, a, k)) + l1_cost(v, k, b, median_range(v, k, b));
    if (cost < best_cost) {
      best_cost = cost;
      k_best = k;
    }
  }
  const double before = median_range(v, a, k_best), after = median_range(v, k_best, b);
  std::vector<double> residuals;
  for (std::size_t i = a; i < b; ++i) residuals.push_back(std::fabs(v[i] - (i < k_best ? before : after)));
  const double spread = std::max(kMadToSigma * median_of(residuals), 1e-3 * std::fabs(before));
  const double z = std::fabs(after - before) / (spread * std::sqrt(1.0 / (k_best - a) + 1.0 / (b - k_best)));
  const double change = after / before - 1;
  if (z < 6 || std::fabs(change) < o.min_change_fraction) return;
  split(v, a, k_best, o, found);
  found.push_back({k_best, before, after, change, 1 - std::erfc(z / std::sqrt(2.0))});
  split(v, k_best, b, o, found);
}

}  // namespace

std::vector<ChangePoint> find_change_points(const std::vector<double>& values, const ChangePointOptions& options) {
  std::vector<ChangePoint> found;
  split(values, 0, values.size(), options, found);
  std::sort(found.begin(), found.end(), [](const ChangePoint& x, const ChangePoint& y) { return x.index < y.index; });
  return found;
}

}  // namespace bws::model
