#include "bs/BsPlateau.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/FormatText.hpp"
#include "core/SampleStats.hpp"
#include "core/Sizes.hpp"

namespace bws::bs {
namespace {

// The bandwidth of the streaming part of a call: the fixed cost taken off
// when it is known (and smaller than the time).
double bandwidth_of(const PlateauPoint& p, double T0_seconds) {
  const double t = T0_seconds >= 0 && p.seconds > T0_seconds ? p.seconds - T0_seconds : p.seconds;
  return t > 0 ? p.bytes / t : 0;
}

// The run [first, end) is flat: every bandwidth within `tolerance` of the
// run's median, but for sizes slowed alone (BsPlateau.hpp), at most one in
// kPlateauMinPoints; their indices go to `slowed`.
bool is_flat(const std::vector<double>& bandwidths, std::size_t first, double tolerance, double& median,
             std::vector<std::size_t>& slowed) {
  slowed.clear();
  median = median_of(std::span<const double>(bandwidths).subspan(first));
  if (!(median > 0)) return false;
  const std::size_t end = bandwidths.size();
  auto within = [&](std::size_t i) { return std::abs(bandwidths[i] / median - 1.0) <= tolerance; };
  for (std::size_t i = first; i < end; ++i) {
    if (within(i)) continue;
    const bool slowed_alone = bandwidths[i] < median && i > first && i + 1 < end && within(i - 1) && within(i + 1);
    if (!slowed_alone) return false;
    slowed.push_back(i);
  }
  return slowed.size() * static_cast<std::size_t>(kPlateauMinPoints) <= end - first;
}

std::string percent(double fraction) { return format_text("%.1f %%", 100.0 * fraction); }

}  // namespace

double plateau_tolerance(std::span<const PlateauPoint> points) {
  std::vector<double> spreads;
  for (const PlateauPoint& p : points) spreads.push_back(std::max(0.0, p.rep_spread));
  if (spreads.empty()) return kPlateauMinTolerance;
  return std::clamp(kPlateauSpreadFactor * median_of(spreads), kPlateauMinTolerance, kPlateauMaxTolerance);
}

Plateau find_plateau(std::span<const PlateauPoint> points, double T0_seconds) {
  Plateau plateau;
  plateau.tolerance = plateau_tolerance(points);
  std::vector<double> bandwidths;
  for (const PlateauPoint& p : points) bandwidths.push_back(bandwidth_of(p, T0_seconds));
  const std::size_t n = points.size();
  // The longest flat run of the largest sizes: tried from the smallest start.
  std::vector<std::size_t> slowed;
  for (std::size_t first = 0; first < n; ++first) {
    double median = 0;
    if (!is_flat(bandwidths, first, plateau.tolerance, median, slowed)) continue;
    // Cache help only makes a size faster: the run's smallest sizes that
    // are more than half the tolerance above its median are its edge (up
    // to a slowed size, which cannot start a run).
    auto fitted_points = [&] { return n - first - slowed.size(); };
    while (fitted_points() > static_cast<std::size_t>(kPlateauMinPoints) &&
           bandwidths[first] > median * (1 + kPlateauEdgeShare * plateau.tolerance) &&
           std::find(slowed.begin(), slowed.end(), first + 1) == slowed.end())
      ++first;
    is_flat(bandwidths, first, plateau.tolerance, median, slowed);
    plateau.first = first;
    plateau.points = static_cast<int>(n - first);
    plateau.first_bytes = points[first].bytes;
    plateau.bandwidth_Bps = median;
    for (std::size_t i : slowed) plateau.interference_bytes.push_back(points[i].bytes);
    break;
  }
  plateau.found = plateau.points - static_cast<int>(plateau.interference_bytes.size()) >= kPlateauMinPoints;
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
