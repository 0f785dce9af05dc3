#pragma once
// Linear scaling of b_eff with the number of ranks (docs/design-notes.md, "b_eff"):
// every ring pair has its own links, so ideally b_eff(n) = n * (b_eff of one
// rank). The efficiency against a per-rank reference measured in the same
// run is
//     E(n) = b_eff(n) / (n * b_eff_per_rank_reference)     [dimensionless]
// and the run's check passes when E(n) >= the minimum efficiency. HPCC_FPGA's
// b_eff performance model: 8 FPGAs 3.13237e10 B/s vs 8 x 4.07e9 B/s gives E = 0.962.
// Pure functions: no MPI, no I/O.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/ResultColumns.hpp"

namespace bws::model {

inline constexpr const char* kLinearScalingCheck = "beff.linear_scaling";
inline constexpr double kDefaultMinEfficiency = 0.8;  // --beff.min-efficiency

// E(n). NaN when ranks is 0 or the reference is not positive and finite, so
// a check built from it fails rather than passing on a bad reference.
double scaling_efficiency(double beff_Bps, std::uint64_t ranks, double beff_per_rank_reference_Bps);

// "natural ring, 8 ranks": the /checks subject for a ring and rank count.
std::string scaling_subject(std::string_view ring, std::uint64_t ranks);

// The /checks row: check "beff.linear_scaling", kind "model", measured E,
// expected 1, lower = min_efficiency, upper = +infinity (E above 1 is not a
// failure: a reference taken across nodes can be slower than on-node pairs;
// HDF5 doubles, h5py and the "%g" summary all carry inf), unit "" (a ratio),
// passed = E >= min_efficiency (false for NaN).
CheckRow linear_scaling_check_row(const std::string& subject, double efficiency, double min_efficiency);

// Least-squares line through the origin, b_eff(n) = slope * n, over several
// runs' (n, b_eff) points (bwreport scaling): slope = sum(n*b) / sum(n^2).
struct ScalingPoint {
  double ranks = 0;     // n
  double beff_Bps = 0;  // b_eff(n), all ranks together
};
struct OriginLineFit {
  bool valid = false;
  std::string invalid_reason;  // empty when valid
  double slope_Bps_per_rank = 0;
  // Centred R^2 = 1 - SS_res / sum (b - mean b)^2: how much of the spread
  // of b_eff across n the line explains. Unlike the uncentred form (divided by
  // sum b^2, always near 1 for a no-intercept fit) it can be negative when a
  // line through 0 fits worse than a constant. NaN with fewer than 2 distinct b.
  double r_squared = 0;
};
// Invalid (with a reason) for no points, a non-finite point, n <= 0 or b < 0.
OriginLineFit fit_line_through_origin(std::span<const ScalingPoint> points);

}  // namespace bws::model
