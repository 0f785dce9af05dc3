#pragma once
// Where a BS sweep's bandwidth has stopped changing with size: the range
// that T(B) = T0 + B/Wmax is fitted on. Above the last-level cache the
// bandwidth need not be the memory's yet: a victim or non-inclusive L3
// (and adaptive replacement in an inclusive one) keeps part of an array
// that is a few times its size, so the bandwidth falls over 1-5x the LLC
// (Zen 5, 32 MiB L3: 101.6, 70.6, 52.4, 47.4, 44.1, 44.1 GB/s from 1.1x to
// 8x). A line through the falling points gives a Wmax of no regime.
//
// The rule (docs/design-notes.md, "BS1–BS7: where the fit starts"):
//  - candidates are the points from the floor up (by default the LLC, the
//    largest cache hwloc reports), by size; a point's bandwidth is
//    B / (t_min - T0) with T0 the measured empty call (B / t_min without it),
//    so the fixed cost of a call is not mistaken for a change with size;
//  - the tolerance is kPlateauSpreadFactor (5) x the median repetition
//    spread (t_median - t_min) / t_min of the candidates, within 3-10 %:
//    noise the repetitions show, the sizes' t_min show too;
//  - the plateau is the longest run of the largest sizes (a suffix of the
//    candidates) whose every bandwidth is within the tolerance of the run's
//    median; then its smallest sizes are dropped while more than half the
//    tolerance above the median of the run (cache help only makes a size
//    faster: that is the edge of the fall, not noise);
//  - a size slower than the tolerance allows, alone between two sizes that
//    are within it (never the run's first or last), is interference: the
//    memory's bandwidth does not dip at one size and come back at the next,
//    another process took bandwidth while that size was timed. It stays in
//    the run, is left out of the fit and is counted (`interference_bytes`);
//    at most one in kPlateauMinPoints of the run's sizes;
//  - it counts only with at least kPlateauMinPoints (4) points besides those. Otherwise
//    there is none: the bandwidth is still changing at the largest size and
//    no Wmax is reported.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace bws::bs {

inline constexpr int kPlateauMinPoints = 4;
inline constexpr double kPlateauMinTolerance = 0.03;
inline constexpr double kPlateauMaxTolerance = 0.10;
inline constexpr double kPlateauSpreadFactor = 5.0;
inline constexpr double kPlateauEdgeShare = 0.5;

struct PlateauPoint {
  double bytes = 0;
  double seconds = 0;        // t_min
  double rep_spread = 0;     // (t_median - t_min) / t_min; 0 for one repetition
};

struct Plateau {
  bool found = false;
  std::string reason;           // why none was found; empty when found
  std::size_t first = 0;        // index (in the given order) of the plateau's smallest point
  int points = 0;               // points in the plateau, interference included; without one, in the flat run at the top that was too short
  std::vector<double> interference_bytes;  // its sizes slowed alone (not fitted), ascending
  double first_bytes = 0;       // its smallest size
  double bandwidth_Bps = 0;     // the median bandwidth of the plateau (of the largest points when none)
  double tolerance = 0;         // relative, as used
};

// points: ascending by bytes, all of them candidates (the caller drops
// those below the floor). T0_seconds < 0: not known.
Plateau find_plateau(std::span<const PlateauPoint> points, double T0_seconds);

// The tolerance the rule uses for these points (exposed for the tests).
double plateau_tolerance(std::span<const PlateauPoint> points);

}  // namespace bws::bs
