#include "bs/BsPlateau.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/Sizes.hpp"

namespace bws::bs {
namespace {

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The bandwidth of the streaming part of a call: the fixed cost taken off
// when it is known (and smaller than the time).
double bandwidth_of(const PlateauPoint& p, double T0_seconds) {
  const double t = T0_seconds >= 0 && p.seconds > T0_seconds ? p.seconds - T0_seconds : p.seconds;
  return t > 0 ? p.bytes / t : 0;
}

// Every bandwidth of [first, end) within `tolerance` of their median.
bool is_flat(const std::vector<double>& bandwidths, std::size_t first, double tolerance, double& median) {
  median = median_of(std::vector<double>(bandwidths.begin() + static_cast<std::ptrdiff_t>(first), bandwidths.end()));
  if (!(median > 0)) return false;
  for (std::size_t i = first; i < bandwidths.size(); ++i)
    if (std::abs(bandwidths[i] / median - 1.0) > tolerance) return false;
  return true;
}

std::string percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %%", 100.0 * fraction);
  return text;
}

}  // namespace

double plateau_tolerance(std::span<const PlateauPoint> points) {
  std::vector<double> spreads;
  for (const PlateauPoint& p : points) spreads.push_back(std::max(0.0, p.rep_spread));
  return std::clamp(kPlateauSpreadFactor * median_of(spreads), kPlateauMinTolerance, kPlateauMaxTolerance);
}

Plateau find_plateau(std::span<const PlateauPoint> points, double T0_seconds) {
  Plateau plateau;
  plateau.tolerance = plateau_tolerance(points);
  std::vector<double> bandwidths;
  for (const PlateauPoint& p : points) bandwidths.push_back(bandwidth_of(p, T0_seconds));
  const std::size_t n = points.size();
  // The longest flat run of the largest sizes: tried from the smallest start.
  for (std::size_t first = 0; first < n; ++first) {
    double median = 0;
    if (!is_flat(bandwidths, first, plateau.tolerance, median)) continue;
    // Cache help only makes a size faster: the run's smallest sizes that
    // are more than half the tolerance above its median are its edge.
    while (n - first > static_cast<std::size_t>(kPlateauMinPoints) &&
           bandwidths[first] > median * (1 + kPlateauEdgeShare * plateau.tolerance))
      ++first;
    is_flat(bandwidths, first, plateau.tolerance, median);
    plateau.first = first;
    plateau.points = static_cast<int>(n - first);
    plateau.first_bytes = points[first].bytes;
    plateau.bandwidth_Bps = median;
    break;
  }
  plateau.found = plateau.points >= kPlateauMinPoints;
  if (plateau.found) return plateau;
  if (n == 0) {
    plateau.reason = "no plateau: no point above the caches";
    return plateau;
  }
  plateau.reason = "no plateau: bandwidth still changing at the largest size " + format_bytes(points.back().bytes) +
                   " (" + std::to_string(plateau.points) + " flat at " + percent(plateau.tolerance) + ", " +
                   std::to_string(kPlateauMinPoints) + " needed)";
  return plateau;
}

}  // namespace bws::bs
