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
  double max_false_alarm = 0.001;     // per series: the chance a series without a step yields a change
  std::size_t min_segment = 3;        // surveys on each side of a change (the last change may have fewer: see .cpp)
};

struct ChangePoint {
  std::size_t index = 0;        // first survey of the new level (values[index] is after the change)
  double before_median = 0;     // the level before, in the series' unit
  double after_median = 0;      // the level after
  double change_fraction = 0;   // after_median / before_median - 1 (negative: lower)
  double confidence = 0;        // 1 - the test's p-value for this split, in [0, 1]
};

// The change points of `values`, in index order. Non-finite values must be
// left out by the caller (with their surveys).
std::vector<ChangePoint> find_change_points(const std::vector<double>& values, const ChangePointOptions& options);

}  // namespace bws::model
