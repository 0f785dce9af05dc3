#pragma once
// The quality gate every fitted figure passes before it is printed: from the
// fit's R^2, its largest |relative residual|, the sign of its intercept and
// the number of points it used, one verdict
//     Result    the fit describes its data: print the figure as a result
//     Warning   it roughly does: print the figure with "(poor fit: ...)"
//     Withheld  it does not: print "withheld: <reason>", never the number
// with a one-line reason. The figures themselves are still written to the
// file beside the verdict (they are the record); only what is printed as a
// result is gated. Pure functions: no I/O. The thresholds and why they are
// where they are: docs/design-notes.md, "Fit quality".
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace bws::model {

enum class FitVerdict { Result, Warning, Withheld };

// A result: at least 99 % of the (weighted) variance explained. Below that
// a two-parameter model over a size sweep leaves a visible trend in its
// residuals: the model's shape is not the data's.
inline constexpr double kResultMinRSquared = 0.99;
// ... and no point more than 10 % off the model: a fit can reach R^2 0.99
// on a sweep spanning decades while its few points in one regime (e.g. the
// sizes still in a cache, or an MPI protocol switch) are far off.
inline constexpr double kResultMaxRelativeResidual = 0.10;
// A warning down to R^2 0.9: the trend is right, the figure is indicative.
// Below it (the b_eff Hockney fit at R^2 0.58 in issue reports, BS1 at 0.78)
// the fitted figure was 1.3-1.6x what the data showed: not a figure at all.
inline constexpr double kWarningMinRSquared = 0.90;
// A point more than half the model off is withheld whatever R^2 says: the
// model predicts that point's time wrong by a factor of 1.5 or more.
inline constexpr double kWarningMaxRelativeResidual = 0.50;
// Two points determine a two-parameter line exactly (R^2 = 1 whatever the
// data); three is the least that can disagree with the model at all.
inline constexpr std::size_t kMinFitPoints = 3;

struct FitQualityInput {
  double r_squared = 0;              // NaN: undefined (all points equal) -> withheld
  double max_relative_residual = 0;  // largest |measured/model - 1|; NaN -> withheld
  bool intercept_negative = false;   // a latency or start-up time below 0: not physical
  std::size_t points = 0;            // points the fit used
};

struct FitQuality {
  FitVerdict verdict = FitVerdict::Withheld;
  std::string reason;  // one line; empty for a Result
};

// The gate, in this order: too few points, negative intercept, R^2 or
// residual not finite -> Withheld; R^2 < kWarningMinRSquared or a residual
// > kWarningMaxRelativeResidual -> Withheld; R^2 < kResultMinRSquared or a
// residual > kResultMaxRelativeResidual -> Warning; else Result.
FitQuality judge_fit(const FitQualityInput& in);
// The same with the inputs spelled out (for callers without the struct).
FitQuality verdict_of(double r_squared, double max_relative_residual, bool intercept_negative, std::size_t points);
// A fit that could not be made at all: Withheld with its reason.
FitQuality withheld_fit(std::string reason);

// Largest finite |r| of the relative residuals; NaN when there is none or
// any is not finite.
double max_abs_relative_residual(std::span<const double> relative_residuals);

// R^2 of model values against measured ones, with relative weights (each
// point's weight 1/measured^2, normalised: every point counts alike, as in
// the relative Hockney fit): 1 - sum w (m - p)^2 / sum w (m - mean_w)^2.
// For a model whose parameters were not fitted to these points it can be
// below 0. NaN when the sizes differ, a measured value is not positive or
// finite, or all measured values are equal.
double relative_r_squared(std::span<const double> measured, std::span<const double> model);

// "result", "warning", "withheld": the names written to files.
const char* verdict_name(FitVerdict verdict);
// The inverse of verdict_name; nullopt for anything else.
std::optional<FitVerdict> parse_verdict(std::string_view name);

// What a summary prints for a fitted figure `figure_text` ("beta = 17.2 GB/s"):
//   Result   -> figure_text
//   Warning  -> figure_text + " (poor fit: <reason>)"
//   Withheld -> "withheld: <reason>"   (the figure is not printed)
std::string gated_figure(const std::string& figure_text, const FitQuality& quality);

// Storage widths of the verdict and reason text columns in result tables:
// the longest reason judge_fit writes is under 60 bytes.
inline constexpr std::size_t kFitVerdictWidth = 16;
inline constexpr std::size_t kFitReasonWidth = 96;

}  // namespace bws::model
