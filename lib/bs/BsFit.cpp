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

BsPaperFit fit_paper(std::span<const BsFitPoint> points) {
  BsPaperFit fit;
  fit.points_used = static_cast<int>(points.size());
  double sum_b = 0, sum_t = 0;
  for (const BsFitPoint& p : points) {
    if (!std::isfinite(p.bytes) || !std::isfinite(p.seconds) || p.seconds <= 0) {
      fit.invalid_reason = "a time that is not a positive number";
      return fit;
    }
    sum_b += p.bytes;
    sum_t += p.seconds;
  }
  const double n = static_cast<double>(points.size());
  const double mean_b = n > 0 ? sum_b / n : 0, mean_t = n > 0 ? sum_t / n : 0;
  double sbb = 0, sbt = 0;  // centred sums: numerically sound over decades of bytes
  for (const BsFitPoint& p : points) {
    sbb += (p.bytes - mean_b) * (p.bytes - mean_b);
    sbt += (p.bytes - mean_b) * (p.seconds - mean_t);
  }
  if (points.size() < 2 || !(sbb > 0)) {
    fit.invalid_reason = "need at least 2 distinct sizes";
    return fit;
  }
  const double slope = sbt / sbb;
  if (!(slope > 0)) {
    fit.invalid_reason = "time does not grow with bytes";
    return fit;
  }
  fit.Wmax_Bps = 1.0 / slope;
  fit.T0_seconds = mean_t - slope * mean_b;
  fit.valid = std::isfinite(fit.Wmax_Bps) && std::isfinite(fit.T0_seconds);
  if (!fit.valid) fit.invalid_reason = "no finite fit";
  return fit;
}

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

model::FitQuality bs_fit_quality(const BsFit& fit) {
  if (!fit.valid) return model::withheld_fit(fit.invalid_reason.empty() ? "no fit" : fit.invalid_reason);
  return model::verdict_of(fit.r_squared, fit.max_abs_relative_residual, fit.T0_negative && !fit.T0_measured,
                           static_cast<std::size_t>(fit.points_used));
}

bool BsFit::fitted_size(double bytes) const {
  return valid && bytes >= first_fitted_bytes &&
         std::find(interference_bytes.begin(), interference_bytes.end(), bytes) == interference_bytes.end();
}

}  // namespace bws::bs
