#include "model/ScalingEfficiency.hpp"

#include <cmath>
#include <limits>

namespace bws::model {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

double scaling_efficiency(double beff_Bps, std::uint64_t ranks, double beff_per_rank_reference_Bps) {
  if (ranks == 0 || !std::isfinite(beff_per_rank_reference_Bps) || beff_per_rank_reference_Bps <= 0) return kNaN;
  // n * reference: the b_eff n ranks would reach if each kept the reference rate.
  return beff_Bps / (static_cast<double>(ranks) * beff_per_rank_reference_Bps);
}

std::string scaling_subject(std::string_view ring, std::uint64_t ranks) {
  return std::string(ring) + ", " + std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks");
}

CheckRow linear_scaling_check_row(const std::string& subject, double efficiency, double min_efficiency) {
  CheckRow row;
  row.check = kLinearScalingCheck;
  row.subject = subject;
  row.kind = "model";
  row.measured = efficiency;
  row.expected = 1.0;
  row.lower = min_efficiency;
  row.upper = std::numeric_limits<double>::infinity();
  row.unit = "";
  row.passed = efficiency >= min_efficiency;  // NaN compares false: fails
  return row;
}

OriginLineFit fit_line_through_origin(std::span<const ScalingPoint> points) {
  OriginLineFit fit;
  if (points.empty()) {
    fit.invalid_reason = "no points";
    return fit;
  }
  double s_nn = 0, s_nb = 0, mean_b = 0;
  for (const ScalingPoint& p : points) {
    if (!std::isfinite(p.ranks) || !std::isfinite(p.beff_Bps)) {
      fit.invalid_reason = "a point is not finite";
      return fit;
    }
    if (p.ranks <= 0 || p.beff_Bps < 0) {
      fit.invalid_reason = "a point has ranks <= 0 or a negative b_eff";
      return fit;
    }
    s_nn += p.ranks * p.ranks;
    s_nb += p.ranks * p.beff_Bps;
    mean_b += p.beff_Bps;
  }
  mean_b /= static_cast<double>(points.size());
  fit.valid = true;
  fit.slope_Bps_per_rank = s_nb / s_nn;
  // Residuals and the spread are summed from centred terms, not as
  // sum b^2 - n*mean^2, which cancels for b_eff values of ~1e10.
  double ss_residual = 0, ss_total = 0;
  for (const ScalingPoint& p : points) {
    const double r = p.beff_Bps - fit.slope_Bps_per_rank * p.ranks;
    const double d = p.beff_Bps - mean_b;
    ss_residual += r * r;
    ss_total += d * d;
  }
  fit.r_squared = ss_total > 0 ? 1.0 - ss_residual / ss_total : kNaN;
  return fit;
}

}  // namespace bws::model
