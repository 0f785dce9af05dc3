// TEMPORARY stand-in for model::find_change_points so that branch
// issue16-base links before helper "cp"'s ChangePoints.cpp lands. DELETE AT
// MERGE. Binary segmentation on medians: the split with the largest robust
// z of the median difference, kept when z > 6 and the step is large enough.
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

double mad_range(const std::vector<double>& v, std::size_t a, std::size_t b) {
  std::vector<double> part(v.begin() + a, v.begin() + b);
  return median_absolute_deviation(part);
}

void split(const std::vector<double>& v, std::size_t a, std::size_t b, const ChangePointOptions& o,
           std::vector<ChangePoint>& found) {
  const std::size_t m = std::max<std::size_t>(o.min_segment, 1);
  if (b - a < 2 * m) return;
  double best_z = 0;
  ChangePoint best;
  for (std::size_t k = a + m; k + m <= b; ++k) {
    const double before = median_range(v, a, k), after = median_range(v, k, b);
    const double spread = std::max({kMadToSigma * std::max(mad_range(v, a, k), mad_range(v, k, b)),
                                    1e-3 * std::fabs(before), 1e-300});
    const double z = std::fabs(after - before) / (spread * std::sqrt(1.0 / (k - a) + 1.0 / (b - k)));
    if (z > best_z) {
      best_z = z;
      best = {k, before, after, after / before - 1, 1 - std::erfc(z / std::sqrt(2.0))};
    }
  }
  if (best_z < 6 || std::fabs(best.change_fraction) < o.min_change_fraction) return;
  split(v, a, best.index, o, found);
  found.push_back(best);
  split(v, best.index, b, o, found);
}

}  // namespace

std::vector<ChangePoint> find_change_points(const std::vector<double>& values, const ChangePointOptions& options) {
  std::vector<ChangePoint> found;
  split(values, 0, values.size(), options, found);
  std::sort(found.begin(), found.end(), [](const ChangePoint& x, const ChangePoint& y) { return x.index < y.index; });
  return found;
}

}  // namespace bws::model
