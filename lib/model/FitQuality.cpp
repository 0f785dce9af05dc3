#include "model/FitQuality.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/FormatText.hpp"

namespace bws::model {
namespace {

// "%.4g": 0.93 stays 0.93, 0.9899 is not rounded up to the threshold.
std::string r2_text(double r_squared) { return format_text("R^2 %.4g", r_squared); }

std::string residual_text(double max_relative_residual) {
  return format_text("a point %.0f %% off the model", max_relative_residual * 100);
}

std::string percent_text(double fraction) { return format_text("%.0f %%", fraction * 100); }

}  // namespace

FitQuality judge_fit(const FitQualityInput& in) {
  if (in.points < kMinFitPoints)
    return withheld_fit(std::to_string(in.points) + (in.points == 1 ? " point" : " points") + ", a fit needs " +
                        std::to_string(kMinFitPoints));
  if (in.intercept_negative) return withheld_fit("negative intercept (not physical)");
  if (!std::isfinite(in.r_squared)) return withheld_fit("R^2 undefined");
  if (!std::isfinite(in.max_relative_residual)) return withheld_fit("residuals undefined");
  if (in.r_squared < kWarningMinRSquared)
    return withheld_fit(r2_text(in.r_squared) + format_text(" < %.4g", kWarningMinRSquared));
  if (in.max_relative_residual > kWarningMaxRelativeResidual)
    return withheld_fit(residual_text(in.max_relative_residual) + " (> " + percent_text(kWarningMaxRelativeResidual) +
                        ")");
  const bool r2_poor = in.r_squared < kResultMinRSquared;
  const bool residual_poor = in.max_relative_residual > kResultMaxRelativeResidual;
  if (!r2_poor && !residual_poor) return {FitVerdict::Result, ""};
  std::string reason = r2_text(in.r_squared);
  if (residual_poor) reason += ", " + residual_text(in.max_relative_residual);
  return {FitVerdict::Warning, reason};
}

FitQuality verdict_of(double r_squared, double max_relative_residual, bool intercept_negative, std::size_t points) {
  return judge_fit({r_squared, max_relative_residual, intercept_negative, points});
}

FitQuality withheld_fit(std::string reason) { return {FitVerdict::Withheld, std::move(reason)}; }

double max_abs_relative_residual(std::span<const double> relative_residuals) {
  if (relative_residuals.empty()) return std::numeric_limits<double>::quiet_NaN();
  double largest = 0;
  for (double r : relative_residuals) {
    if (!std::isfinite(r)) return std::numeric_limits<double>::quiet_NaN();
    largest = std::max(largest, std::fabs(r));
  }
  return largest;
}

double relative_r_squared(std::span<const double> measured, std::span<const double> model) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (measured.size() != model.size() || measured.empty()) return nan;
  double weight_sum = 0;
  for (double m : measured) {
    if (!(std::isfinite(m) && m > 0)) return nan;
    weight_sum += 1.0 / (m * m);
  }
  double mean = 0;
  for (double m : measured) mean += m / (m * m) / weight_sum;
  double ss_total = 0, ss_residual = 0;
  for (std::size_t i = 0; i < measured.size(); ++i) {
    const double w = 1.0 / (measured[i] * measured[i]) / weight_sum;
    ss_total += w * (measured[i] - mean) * (measured[i] - mean);
    ss_residual += w * (measured[i] - model[i]) * (measured[i] - model[i]);
  }
  return ss_total > 0 ? 1.0 - ss_residual / ss_total : nan;
}

const char* verdict_name(FitVerdict verdict) {
  switch (verdict) {
    case FitVerdict::Result: return "result";
    case FitVerdict::Warning: return "warning";
    case FitVerdict::Withheld: return "withheld";
  }
  return "withheld";
}

std::optional<FitVerdict> parse_verdict(std::string_view name) {
  for (FitVerdict v : {FitVerdict::Result, FitVerdict::Warning, FitVerdict::Withheld})
    if (name == verdict_name(v)) return v;
  return std::nullopt;
}

std::string gated_figure(const std::string& figure_text, const FitQuality& quality) {
  switch (quality.verdict) {
    case FitVerdict::Result: return figure_text;
    case FitVerdict::Warning: return figure_text + " (poor fit: " + quality.reason + ")";
    case FitVerdict::Withheld: return "withheld: " + quality.reason;
  }
  return "withheld: " + quality.reason;
}

}  // namespace bws::model
