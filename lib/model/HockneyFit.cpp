#include "model/HockneyFit.hpp"

#include <cmath>
#include <limits>

namespace bws::model {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

HockneyFit invalid(std::string reason, HockneyWeighting weighting) {
  HockneyFit fit;
  fit.invalid_reason = std::move(reason);
  fit.weighting = weighting;
  return fit;
}

std::string check_points(std::span<const HockneyPoint> points) {
  if (points.size() < 2) return "need at least 2 points, got " + std::to_string(points.size());
  bool two_sizes = false;
  for (const HockneyPoint& p : points) {
    if (!std::isfinite(p.message_bytes) || !std::isfinite(p.seconds_per_exchange))
      return "a point is not finite";
    if (p.message_bytes < 0) return "a message size is negative";
    if (p.seconds_per_exchange <= 0) return "a time is not positive";
    two_sizes = two_sizes || p.message_bytes != points.front().message_bytes;
  }
  return two_sizes ? "" : "need at least 2 distinct message sizes";
}

}  // namespace

HockneyFit fit_hockney(std::span<const HockneyPoint> points, HockneyWeighting weighting) {
  if (std::string reason = check_points(points); !reason.empty()) return invalid(std::move(reason), weighting);

  // Weighted least squares for t = alpha + slope*L. Weights are normalised
  // and the sums centred on the weighted means: L spans 1 B .. MiB and t
  // spans decades, so raw sums of L^2 and L*t would cancel catastrophically.
  auto weight = [&](const HockneyPoint& p) {
    return weighting == HockneyWeighting::Relative ? 1.0 / (p.seconds_per_exchange * p.seconds_per_exchange) : 1.0;
  };
  double weight_sum = 0;
  for (const HockneyPoint& p : points) weight_sum += weight(p);
  double mean_L = 0, mean_t = 0;
  for (const HockneyPoint& p : points) {
    const double w = weight(p) / weight_sum;
    mean_L += w * p.message_bytes;
    mean_t += w * p.seconds_per_exchange;
  }
  double s_LL = 0, s_Lt = 0, s_tt = 0;  // centred, weighted second moments
  for (const HockneyPoint& p : points) {
    const double w = weight(p) / weight_sum;
    const double dL = p.message_bytes - mean_L, dt = p.seconds_per_exchange - mean_t;
    s_LL += w * dL * dL;
    s_Lt += w * dL * dt;
    s_tt += w * dt * dt;
  }
  const double slope_seconds_per_byte = s_Lt / s_LL;
  if (!(slope_seconds_per_byte > 0))
    return invalid("time does not grow with message size (slope " + std::to_string(slope_seconds_per_byte) +
                       " s/B): no bandwidth term",
                   weighting);

  HockneyFit fit;
  fit.valid = true;
  fit.weighting = weighting;
  fit.alpha_seconds = mean_t - slope_seconds_per_byte * mean_L;
  fit.beta_Bps = 1.0 / slope_seconds_per_byte;
  fit.alpha_negative = fit.alpha_seconds < 0;

  double ss_residual = 0;  // weighted, as the fit minimised it
  for (const HockneyPoint& p : points) {
    HockneyResidual r;
    r.message_bytes = p.message_bytes;
    r.measured_seconds = p.seconds_per_exchange;
    r.model_seconds = fit.alpha_seconds + slope_seconds_per_byte * p.message_bytes;
    r.residual_seconds = r.measured_seconds - r.model_seconds;
    r.relative_residual = r.model_seconds != 0 ? r.residual_seconds / r.model_seconds : kNaN;
    ss_residual += weight(p) / weight_sum * r.residual_seconds * r.residual_seconds;
    fit.residuals.push_back(r);
  }
  fit.r_squared = s_tt > 0 ? 1.0 - ss_residual / s_tt : kNaN;
  return fit;
}

FitQuality hockney_quality(const HockneyFit& fit) {
  if (!fit.valid) return withheld_fit(fit.invalid_reason.empty() ? "no fit" : fit.invalid_reason);
  std::vector<double> relative;
  for (const HockneyResidual& r : fit.residuals) relative.push_back(r.relative_residual);
  return verdict_of(fit.r_squared, max_abs_relative_residual(relative), fit.alpha_negative, fit.residuals.size());
}

double hockney_time_seconds(const HockneyFit& fit, double message_bytes) {
  if (!fit.valid) return kNaN;
  return fit.alpha_seconds + message_bytes / fit.beta_Bps;
}

double hockney_bandwidth_Bps(const HockneyFit& fit, double message_bytes, double bytes_factor) {
  // bytes_factor * L: bytes the exchange moves (2L for the ring's two neighbours).
  return bytes_factor * message_bytes / hockney_time_seconds(fit, message_bytes);
}

double hockney_beff_Bps(const HockneyFit& fit, std::span<const std::uint64_t> sizes_bytes, double bytes_factor) {
  if (!fit.valid || sizes_bytes.empty()) return kNaN;
  double sum = 0;
  for (std::uint64_t L : sizes_bytes) sum += hockney_bandwidth_Bps(fit, static_cast<double>(L), bytes_factor);
  return sum / static_cast<double>(sizes_bytes.size());
}

}  // namespace bws::model
