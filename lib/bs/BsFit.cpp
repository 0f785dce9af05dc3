#include "bs/BsFit.hpp"

#include <algorithm>
#include <cmath>

#include "model/HockneyFit.hpp"

namespace bws::bs {

double fischer_brown_bytes(double T0_seconds, double Wmax_Bps, double fraction) {
  return T0_seconds * Wmax_Bps * fraction / (1.0 - fraction);
}

namespace {

// Least squares of t - T0 = B / W over the points with weights 1/t^2
// (as the free fit): s = 1/W = sum(w B (t - T0)) / sum(w B^2).
// Returns the slope and sets R^2 against the weighted mean of t.
double slope_with_T0_held(std::span<const BsFitPoint> points, double T0_seconds, double& r_squared) {
  double swb = 0, swbb = 0, sw = 0, swt = 0;
  for (const BsFitPoint& p : points) {
    const double w = 1.0 / (p.seconds * p.seconds);
    swb += w * p.bytes * (p.seconds - T0_seconds);
    swbb += w * p.bytes * p.bytes;
    sw += w;
    swt += w * p.seconds;
  }
  const double slope = swb / swbb, mean = swt / sw;
  double ss_res = 0, ss_tot = 0;
  for (const BsFitPoint& p : points) {
    const double w = 1.0 / (p.seconds * p.seconds), model = T0_seconds + slope * p.bytes;
    ss_res += w * (p.seconds - model) * (p.seconds - model);
    ss_tot += w * (p.seconds - mean) * (p.seconds - mean);
  }
  r_squared = ss_tot > 0 ? 1.0 - ss_res / ss_tot : std::nan("");
  return slope;
}

}  // namespace

BsFit fit_streaming(std::span<const BsFitPoint> points, double T0_measured_seconds) {
  BsFit fit;
  fit.points_used = static_cast<int>(points.size());
  if (points.size() < 3) {
    fit.invalid_reason = "need at least 3 points, got " + std::to_string(points.size());
    return fit;
  }
  std::vector<model::HockneyPoint> hp;
  hp.reserve(points.size());
  fit.first_fitted_bytes = points.front().bytes;
  for (const BsFitPoint& p : points) {
    hp.push_back({p.bytes, p.seconds});
    fit.first_fitted_bytes = std::min(fit.first_fitted_bytes, p.bytes);
  }
  const model::HockneyFit h = model::fit_hockney(hp, model::HockneyWeighting::Relative);
  if (!h.valid) {
    fit.invalid_reason = h.invalid_reason;
    return fit;
  }
  fit.T0_unconstrained_seconds = h.alpha_seconds;
  fit.T0_seconds = h.alpha_seconds;
  fit.Wmax_Bps = h.beta_Bps;
  fit.r_squared = h.r_squared;
  if (T0_measured_seconds >= 0) {
    fit.T0_measured = true;
    fit.T0_negative = h.alpha_seconds < 0;
    fit.T0_seconds = T0_measured_seconds;
    fit.Wmax_Bps = 1.0 / slope_with_T0_held(points, T0_measured_seconds, fit.r_squared);
  } else if (h.alpha_seconds < 0) {
    // Not physical: through the origin instead, and flagged.
    fit.T0_negative = true;
    fit.T0_seconds = 0;
    fit.Wmax_Bps = 1.0 / slope_with_T0_held(points, 0, fit.r_squared);
  }
  for (const BsFitPoint& p : points) {
    const double model = fit.T0_seconds + p.bytes / fit.Wmax_Bps;
    const double rel = (p.seconds - model) / model;
    fit.relative_residuals.push_back(rel);
    fit.max_abs_relative_residual = std::max(fit.max_abs_relative_residual, std::abs(rel));
  }
  fit.valid = std::isfinite(fit.Wmax_Bps) && fit.Wmax_Bps > 0;
  if (!fit.valid) fit.invalid_reason = "no positive bandwidth";
  return fit;
}

}  // namespace bws::bs
