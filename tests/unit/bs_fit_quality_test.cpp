// BS1-BS7 (lib/bs): the fit's quality gate in /bs/fits and the summary: a
// withheld fit prints no Wmax, a poor one prints it with why, an old file
// without the verdict columns is judged from what it kept.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "TestSupport.hpp"
#include "bs/BsBenchmark.hpp"
#include "bs/BsFit.hpp"
#include "bs/BsResults.hpp"
#include "core/ResultColumns.hpp"

namespace bws::bs {
namespace {

BsFit fitted(double r_squared, double max_residual, int points) {
  BsFit fit;
  fit.valid = true;
  fit.points_used = points;
  fit.T0_seconds = 1e-6;
  fit.Wmax_Bps = 40e9;
  fit.r_squared = r_squared;
  fit.max_abs_relative_residual = max_residual;
  return fit;
}

TEST(BsFitQuality, VerdictFromRSquaredResidualsAndPoints) {
  EXPECT_EQ(bs_fit_quality(fitted(0.999, 0.02, 6)).verdict, model::FitVerdict::Result);
  EXPECT_EQ(bs_fit_quality(fitted(0.95, 0.05, 6)).verdict, model::FitVerdict::Warning);
  EXPECT_EQ(bs_fit_quality(fitted(0.78, 0.52, 6)).verdict, model::FitVerdict::Withheld);  // the Zen 5 fit
  EXPECT_EQ(bs_fit_quality(fitted(0.999, 0.02, 2)).verdict, model::FitVerdict::Withheld);
}

TEST(BsFitQuality, OnlyAFittedNegativeInterceptCountsAgainstTheFit) {
  BsFit forced = fitted(0.999, 0.02, 6);
  forced.T0_negative = true;  // the free fit's T0 < 0, then forced to 0: not physical
  EXPECT_EQ(bs_fit_quality(forced).verdict, model::FitVerdict::Withheld);
  forced.T0_measured = true;  // T0 is the measured empty call: the free intercept is only kept
  EXPECT_EQ(bs_fit_quality(forced).verdict, model::FitVerdict::Result);
}

TEST(BsFitQuality, AFitNotMadeIsWithheldWithItsReason) {
  BsFit none;
  none.invalid_reason = "no plateau: bandwidth still changing at the largest size";
  const model::FitQuality q = bs_fit_quality(none);
  EXPECT_EQ(q.verdict, model::FitVerdict::Withheld);
  EXPECT_EQ(q.reason, none.invalid_reason);
}

// One /bs/fits row as an old or a new file holds it.
Table fits_row(double Wmax_Bps, double r_squared, double max_residual, const std::string& verdict,
               const std::string& reason) {
  Table fits = make_bs_fits_table();
  fits.add_row({
      {"rank", 0},        {"host", "n1"},          {"backend", kBackendCpu}, {"test", "BS1"},
      {"degree", 0},      {"threads", 2},          {"points_used", 6},       {"first_fitted_bytes", 1 << 25},
      {"T0_seconds", 1e-6}, {"Wmax_Bps", Wmax_Bps}, {"r2", r_squared},       {"B08_bytes", 4 * 1e-6 * Wmax_Bps},
      {"B05_bytes", 1e-6 * Wmax_Bps}, {"T0_negative", 0}, {"T0_measured", 1}, {"T0_fit_seconds", 1e-6},
      {"max_rel_residual", max_residual}, {"fitted", 1}, {"valid", 1}, {"paper_points", 0},
      {"T0_paper_seconds", NAN}, {"Wmax_paper_Bps", NAN}, {"B08_paper_bytes", NAN}, {"paper_fitted", 0},
      {"plateau_found", 1}, {"plateau_points", 6}, {"plateau_interference", 0}, {"plateau_first_bytes", 1 << 25}, {"plateau_Bps", Wmax_Bps},
      {"plateau_tolerance", 0.03}, {"fit_verdict", verdict}, {"fit_quality", reason}});
  return fits;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  return text;
}

TEST(BsFitQuality, SummaryPrintsNoFigureOfAWithheldFit) {
  const std::string text =
      joined(make_bs_report()->summary_lines({fits_row(67.2e9, 0.78, 0.52, "withheld", "R^2 0.78 < 0.9")}));
  EXPECT_EQ(text.find("67.20"), std::string::npos) << text;
  EXPECT_NE(text.find("BS FIT WITHHELD: rank 0 (n1) BS1: R^2 0.78 < 0.9"), std::string::npos) << text;
}

TEST(BsFitQuality, SummaryPrintsAPoorFitWithWhy) {
  const std::string text =
      joined(make_bs_report()->summary_lines({fits_row(44.1e9, 0.95, 0.05, "warning", "R^2 0.95 < 0.99")}));
  EXPECT_NE(text.find("44.10"), std::string::npos) << text;
  EXPECT_NE(text.find("BS POOR FIT: rank 0 (n1) BS1: R^2 0.95 < 0.99"), std::string::npos) << text;
}

TEST(BsFitQuality, OldFileWithoutVerdictIsJudgedFromWhatItKept) {
  // An old file's row: no verdict text (an empty cell reads as no verdict),
  // R^2 0.58 kept: withheld, its 23.17 GB/s not printed.
  const std::string text = joined(make_bs_report()->summary_lines({fits_row(23.17e9, 0.58, 0.4, "", "")}));
  EXPECT_EQ(text.find("23.17"), std::string::npos) << text;
  EXPECT_NE(text.find("BS FIT WITHHELD"), std::string::npos) << text;
}

}  // namespace
}  // namespace bws::bs
