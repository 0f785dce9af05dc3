#pragma once
// pmbw's run time, known before it starts, and its fitting into
// --time-budget. The model (per rank; every thread count, routine and size
// of the plan is one point):
//   point   = reps x max(1.5 x min-time, one pass)      the kept samples (pmbw aims at 1.5 x the minimum)
//           + calibration                               the first size of a routine starts from 1 GiB of
//                                                       work per thread; later sizes now and then sample again
//           + the Perm cycle written before the point   (Sattolo over the area, random writes)
//   one pass = a thread's area / its share of the memory bandwidth (Scan), or its 8-byte steps x the time
//             of one dependent load (Perm); in the caches both are fast and the minimum time rules
//   run     = first touch of the buffer + the sum of the points.
// Fitting changes only what the options left at their defaults, in this
// order, until the estimate fits: thread counts 1, 2, 4 .. P (as
// --pmbw.quadratic); the largest size down to the first of pmbw's table at
// or above 4x the last-level cache (a point in memory stays); a shorter
// minimum time (down to 10 ms); fewer sizes sampled log-evenly from the
// table (down to 12); 2 reps; the largest size down to 2x the LLC;
// 1 rep; fewer sizes (down to 6). What cannot be fitted is refused with
// the estimate and the --time-budget that would fit.
#include <string>

#include "core/TimeEstimate.hpp"
#include "pmbw/PmbwPlan.hpp"

namespace bws::pmbw {

inline constexpr double kFitMinTimeFloorSeconds = 0.01;
inline constexpr std::size_t kFitSizesFloor = 12, kFitSizesLastFloor = 6;

// What fitting may change: the options left at their defaults.
struct PmbwFreedom {
  bool threads = false;   // --pmbw.threads auto, --pmbw.quadratic off
  bool max_size = false;  // --pmbw.max-bytes auto
  bool sizes = false;     // --pmbw.min-bytes and --pmbw.max-bytes both left alone
  bool min_time = false;  // --pmbw.min-time
  bool reps = false;      // --pmbw.reps
};

// Seconds the plan takes on a rank of `speed` whose last-level cache is
// params.llc_bytes, and the terms ("2352 points (48 routines x 7 thread counts x 7 sizes) x 3 reps ...").
TimeEstimate estimate_pmbw(const PmbwParams& params, const MachineSpeed& speed);

// `count` sizes of `sizes` (ascending), evenly spaced on a log scale,
// the first and the last kept; all of them when count >= their number.
std::vector<std::uint64_t> log_even_sizes(const std::vector<std::uint64_t>& sizes, std::size_t count);

// Makes params fit budget_seconds (see above); returns what it changed
// ("threads 1..64 -> 7 counts, min-time 1 -> 0.01 s"), "" when nothing.
// Throws UsageError (the one line of over_budget_message) when even the
// smallest plan it may make does not fit. budget_seconds 0: no change.
std::string fit_pmbw_to_budget(PmbwParams& params, const PmbwFreedom& freedom, const MachineSpeed& speed,
                               double budget_seconds);

}  // namespace bws::pmbw
