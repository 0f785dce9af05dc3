// lib/model/FitQuality: the gate every fitted figure passes (result, warning,
// withheld), at and around its thresholds, and on Hockney fits of known data.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "model/FitQuality.hpp"
#include "model/HockneyFit.hpp"

using namespace bws::model;

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

TEST(FitQuality, GoodFitIsAResultWithNoReason) {
  const FitQuality q = verdict_of(0.995, 0.04, false, 12);
  EXPECT_EQ(q.verdict, FitVerdict::Result);
  EXPECT_EQ(q.reason, "");
  EXPECT_EQ(gated_figure("beta = 17.2 GB/s", q), "beta = 17.2 GB/s");
}

TEST(FitQuality, ThresholdsThemselvesStillPass) {
  EXPECT_EQ(verdict_of(0.99, 0.10, false, 3).verdict, FitVerdict::Result);
  EXPECT_EQ(verdict_of(0.90, 0.50, false, 3).verdict, FitVerdict::Warning);
}

TEST(FitQuality, ModerateRSquaredIsAWarningNamingIt) {
  const FitQuality q = verdict_of(0.93, 0.05, false, 20);
  EXPECT_EQ(q.verdict, FitVerdict::Warning);
  EXPECT_EQ(q.reason, "R^2 0.93");
  EXPECT_EQ(gated_figure("Wmax = 44.1 GB/s", q), "Wmax = 44.1 GB/s (poor fit: R^2 0.93)");
}

TEST(FitQuality, LargeResidualWithHighRSquaredIsAWarning) {
  const FitQuality q = verdict_of(0.998, 0.18, false, 20);
  EXPECT_EQ(q.verdict, FitVerdict::Warning);
  EXPECT_EQ(q.reason, "R^2 0.998, a point 18 % off the model");
}

TEST(FitQuality, RSquaredJustUnderTheResultThresholdIsNotRoundedUp) {
  const FitQuality q = verdict_of(0.9899, 0.01, false, 20);
  EXPECT_EQ(q.verdict, FitVerdict::Warning);
  EXPECT_EQ(q.reason, "R^2 0.9899");
}

// The b_eff summary of issue reports: R^2 0.5839 was printed as a result.
TEST(FitQuality, LowRSquaredIsWithheldAndItsFigureNotPrinted) {
  const FitQuality q = verdict_of(0.5839, 0.3, false, 21);
  EXPECT_EQ(q.verdict, FitVerdict::Withheld);
  EXPECT_EQ(q.reason, "R^2 0.5839 < 0.9");
  const std::string printed = gated_figure("beta = 17.198 GB/s", q);
  EXPECT_EQ(printed, "withheld: R^2 0.5839 < 0.9");
  EXPECT_EQ(printed.find("17.198"), std::string::npos);
}

// BS1 on the Zen 5 host: r^2 0.78, largest residual 52 %, negative T0.
TEST(FitQuality, NegativeInterceptIsWithheldWhateverRSquared) {
  const FitQuality q = verdict_of(0.999, 0.01, true, 24);
  EXPECT_EQ(q.verdict, FitVerdict::Withheld);
  EXPECT_EQ(q.reason, "negative intercept (not physical)");
}

TEST(FitQuality, ResidualOverHalfTheModelIsWithheld) {
  const FitQuality q = verdict_of(0.95, 0.52, false, 6);
  EXPECT_EQ(q.verdict, FitVerdict::Withheld);
  EXPECT_EQ(q.reason, "a point 52 % off the model (> 50 %)");
}

TEST(FitQuality, TooFewPointsAreWithheld) {
  EXPECT_EQ(verdict_of(1.0, 0.0, false, 2).reason, "2 points, a fit needs 3");
  EXPECT_EQ(verdict_of(1.0, 0.0, false, 1).reason, "1 point, a fit needs 3");
  EXPECT_EQ(verdict_of(1.0, 0.0, false, 2).verdict, FitVerdict::Withheld);
}

TEST(FitQuality, UndefinedInputsAreWithheld) {
  EXPECT_EQ(verdict_of(kNaN, 0.01, false, 5).reason, "R^2 undefined");
  EXPECT_EQ(verdict_of(0.999, kNaN, false, 5).reason, "residuals undefined");
  EXPECT_EQ(withheld_fit("no fit").verdict, FitVerdict::Withheld);
}

TEST(FitQuality, LargestAbsoluteResidual) {
  const std::vector<double> r = {0.02, -0.31, 0.2};
  EXPECT_DOUBLE_EQ(max_abs_relative_residual(r), 0.31);
  EXPECT_TRUE(std::isnan(max_abs_relative_residual({})));
  const std::vector<double> with_nan = {0.02, kNaN};
  EXPECT_TRUE(std::isnan(max_abs_relative_residual(with_nan)));
}

// measured {1, 2, 4}, model {1, 2, 3}: weights 1, 1/4, 1/16; weighted mean
// 4/3; SS_tot = (1 + 1 + 4)/9 = 2/3, SS_res = 1/16: R^2 = 1 - 3/32.
TEST(FitQuality, RelativeRSquaredByHand) {
  const std::vector<double> measured = {1, 2, 4}, model = {1, 2, 3};
  EXPECT_NEAR(relative_r_squared(measured, model), 1.0 - 3.0 / 32.0, 1e-12);
  EXPECT_NEAR(relative_r_squared(measured, measured), 1.0, 1e-12);
  const std::vector<double> flat = {2, 2, 2}, short_model = {1, 2};
  EXPECT_TRUE(std::isnan(relative_r_squared(flat, flat)));
  EXPECT_TRUE(std::isnan(relative_r_squared(measured, short_model)));
  const std::vector<double> far = {10, 20, 40};
  EXPECT_LT(relative_r_squared(measured, far), 0.0);  // a model not fitted to the points can be worse than their mean
}

TEST(FitQuality, VerdictNamesRoundTrip) {
  EXPECT_STREQ(verdict_name(FitVerdict::Result), "result");
  EXPECT_STREQ(verdict_name(FitVerdict::Warning), "warning");
  EXPECT_STREQ(verdict_name(FitVerdict::Withheld), "withheld");
  for (FitVerdict v : {FitVerdict::Result, FitVerdict::Warning, FitVerdict::Withheld})
    EXPECT_EQ(parse_verdict(verdict_name(v)), v);
  EXPECT_FALSE(parse_verdict("passed").has_value());
  EXPECT_FALSE(parse_verdict("").has_value());
}

// ---- Hockney fits through the gate ----

namespace {
std::vector<HockneyPoint> exact_hockney(double alpha_seconds, double beta_Bps) {
  std::vector<HockneyPoint> points;
  for (double L = 1; L <= 1 << 20; L *= 4) points.push_back({L, alpha_seconds + L / beta_Bps});
  return points;
}
}  // namespace

TEST(HockneyQuality, ExactDataIsAResult) {
  const auto points = exact_hockney(2e-6, 1e10);
  const FitQuality q = hockney_quality(fit_hockney(points, HockneyWeighting::Relative));
  EXPECT_EQ(q.verdict, FitVerdict::Result) << q.reason;
}

// Times that barely grow with L and jump about by +-40 %: a slope can be
// fitted, but it explains little of the variance.
TEST(HockneyQuality, ScatteredTimesAreWithheld) {
  const std::vector<HockneyPoint> points = {{1, 1.0e-6},    {16, 1.4e-6}, {256, 0.7e-6},
                                            {4096, 1.3e-6}, {65536, 0.8e-6}, {1048576, 1.5e-6}};
  const HockneyFit fit = fit_hockney(points, HockneyWeighting::Relative);
  ASSERT_TRUE(fit.valid) << fit.invalid_reason;
  ASSERT_LT(fit.r_squared, 0.9);
  const FitQuality q = hockney_quality(fit);
  EXPECT_EQ(q.verdict, FitVerdict::Withheld);
  EXPECT_EQ(q.reason.rfind("R^2 ", 0), 0u) << q.reason;
}

TEST(HockneyQuality, InvalidFitIsWithheldWithItsReason) {
  const std::vector<HockneyPoint> one = {{8, 1e-6}};
  const FitQuality q = hockney_quality(fit_hockney(one));
  EXPECT_EQ(q.verdict, FitVerdict::Withheld);
  EXPECT_EQ(q.reason, "need at least 2 points, got 1");
}

TEST(HockneyQuality, TwoSizesAreWithheldThoughTheLineIsExact) {
  const std::vector<HockneyPoint> two = {{8, 1e-6}, {1024, 2e-6}};
  const HockneyFit fit = fit_hockney(two);
  ASSERT_TRUE(fit.valid);
  EXPECT_EQ(hockney_quality(fit).reason, "2 points, a fit needs 3");
}
