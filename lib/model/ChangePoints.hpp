#pragma once
// Change points in one node's own series of one metric (its values over
// successive surveys, oldest first): steps that persist, not single
// outliers, not slow drifts below the size that matters. The method and why
// it was chosen: docs/design-notes.md, "Change points". Pure: no I/O.
#include <cstddef>
#include <vector>

namespace bws::model {

struct ChangePointOptions {
  double min_change_fraction = 0.05;  // smaller steps are not reported: |after/before - 1| >= this
  double max_false_alarm = 0.006;     // per series without a step: the chance of a change (at most)
  std::size_t min_segment = 3;        // surveys on each side of a change, the newest change included
};

struct ChangePoint {
  std::size_t index = 0;        // first survey of the new level (values[index] is after the change)
  double before_median = 0;     // the level before, in the series' unit
  double after_median = 0;      // the level after
  double change_fraction = 0;   // after_median / before_median - 1 (negative: lower)
  double confidence = 0;        // 1 - the test's p-value for this split, in [0, 1]
};

// The change points of `values`, in index order. Non-finite values should be
// left out by the caller (with their surveys); any left in are skipped, and
// indices stay those of `values`. Throws std::invalid_argument for
// max_false_alarm outside (0, 1) or a negative min_change_fraction.
// The first series of a length that comes near significance simulates that
// length's thresholds (up to 0.23 s at 100 values; cached for the process,
// thread-safe): 17-45 us per 100-value series after that.
std::vector<ChangePoint> find_change_points(const std::vector<double>& values, const ChangePointOptions& options);

}  // namespace bws::model
