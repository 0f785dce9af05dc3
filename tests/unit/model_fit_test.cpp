// lib/model: the Hockney fit, the linear-scaling check and the node ceiling,
// against HPCC_FPGA's own numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ModelSeedNumbers.hpp"
#include "core/ResultColumns.hpp"
#include "model/ChannelModel.hpp"
#include "model/HockneyFit.hpp"
#include "model/MessageSizes.hpp"
#include "model/NodeCeiling.hpp"
#include "model/ScalingEfficiency.hpp"

using namespace bws::model;
using namespace bws::test;

// ---- Hockney fit ----

namespace {
std::vector<HockneyPoint> hockney_points(double alpha_seconds, double beta_Bps, double relative_noise = 0) {
  std::mt19937_64 random(12345);
  std::uniform_real_distribution<double> noise(-relative_noise, relative_noise);
  std::vector<HockneyPoint> points;
  for (std::uint64_t L : beff_message_sizes(2.0)) {
    const double t = alpha_seconds + static_cast<double>(L) / beta_Bps;
    points.push_back({static_cast<double>(L), t * (1 + noise(random))});
  }
  return points;
}
}  // namespace

TEST(HockneyFit, RecoversExactParametersFromNoiselessData) {
  const auto points = hockney_points(5e-6, 1e10);
  for (HockneyWeighting weighting : {HockneyWeighting::Absolute, HockneyWeighting::Relative}) {
    const HockneyFit fit = fit_hockney(points, weighting);
    ASSERT_TRUE(fit.valid) << fit.invalid_reason;
    EXPECT_TRUE(fit.invalid_reason.empty());
    EXPECT_NEAR(fit.alpha_seconds, 5e-6, 5e-6 * 1e-9);
    EXPECT_NEAR(fit.beta_Bps, 1e10, 1e10 * 1e-9);
    EXPECT_NEAR(fit.r_squared, 1.0, 1e-12);
    EXPECT_FALSE(fit.alpha_negative);
    ASSERT_EQ(fit.residuals.size(), points.size());
    for (const HockneyResidual& r : fit.residuals) EXPECT_NEAR(r.relative_residual, 0, 1e-9);
    // Predictions: b(L) = 2L / (alpha + L/beta), b_eff = their mean.
    EXPECT_NEAR(hockney_time_seconds(fit, 1e6), 5e-6 + 1e-4, 1e-15);
    EXPECT_NEAR(hockney_bandwidth_Bps(fit, 1e6), 2e6 / (5e-6 + 1e-4), 1);
    EXPECT_NEAR(hockney_bandwidth_Bps(fit, 1e6, 1), 1e6 / (5e-6 + 1e-4), 1);
    double expected_beff = 0;
    for (std::uint64_t L : beff_message_sizes(2.0)) expected_beff += 2.0 * L / (5e-6 + L / 1e10);
    EXPECT_NEAR(hockney_beff_Bps(fit, beff_message_sizes(2.0)), expected_beff / 21, expected_beff / 21 * 1e-9);
  }
}

TEST(HockneyFit, ApproximatelyRecoversParametersFromNoisyData) {
  const auto points = hockney_points(5e-6, 1e10, 0.01);  // +-1 % per point
  const HockneyFit relative = fit_hockney(points, HockneyWeighting::Relative);
  ASSERT_TRUE(relative.valid);
  EXPECT_NEAR(relative.alpha_seconds, 5e-6, 5e-6 * 0.05);
  EXPECT_NEAR(relative.beta_Bps, 1e10, 1e10 * 0.03);
  EXPECT_GT(relative.r_squared, 0.99);
  const HockneyFit absolute = fit_hockney(points);
  ASSERT_TRUE(absolute.valid);
  EXPECT_NEAR(absolute.beta_Bps, 1e10, 1e10 * 0.03);  // alpha is loosely pinned by MiB-sized points
  EXPECT_GT(absolute.r_squared, 0.99);
  for (const HockneyResidual& r : relative.residuals) {
    EXPECT_DOUBLE_EQ(r.residual_seconds, r.measured_seconds - r.model_seconds);
    EXPECT_LT(std::fabs(r.relative_residual), 0.05);
  }
}

TEST(HockneyFit, SeedMeasurementFitsAndPredictsItsBeff) {
  std::vector<HockneyPoint> points;
  for (std::size_t i = 0; i < 21; ++i)
    points.push_back({static_cast<double>(kSeedSizes[i]), kSeedOneDeviceTransferSeconds[i] / kSeedLooplength});
  const HockneyFit fit = fit_hockney(points);
  ASSERT_TRUE(fit.valid);
  EXPECT_NEAR(fit.alpha_seconds, 1.225e-6, 0.01e-6);  // per exchange: 2 x 520 ns latency + a little
  EXPECT_NEAR(fit.beta_Bps, 4.961e9, 0.01e9);         // ~ 64 B x 156.25 MHz / 2 (sequential)
  EXPECT_GT(fit.r_squared, 0.9999);
  EXPECT_NEAR(hockney_beff_Bps(fit, seed_table_message_sizes()) / 3.95057e9, 1.0, 0.001);
  for (const HockneyResidual& r : fit.residuals) EXPECT_LT(std::fabs(r.relative_residual), 0.01);
}

TEST(HockneyFit, CentredSumsSurviveALargeSizeOffset) {
  // Sizes 1e12 + i bytes: raw sums of L^2 would lose every digit of the slope.
  std::vector<HockneyPoint> points;
  for (int i = 0; i < 10; ++i) {
    const double L = 1e12 + 1e6 * i;
    points.push_back({L, 1e-3 + L / 1e10});
  }
  const HockneyFit fit = fit_hockney(points);
  ASSERT_TRUE(fit.valid);
  EXPECT_NEAR(fit.beta_Bps, 1e10, 1e10 * 1e-6);
}

TEST(HockneyFit, NegativeInterceptIsFlaggedNotRejected) {
  std::vector<HockneyPoint> points;
  for (double L : {1e4, 1e5, 1e6}) points.push_back({L, -1e-6 + L / 1e9});
  const HockneyFit fit = fit_hockney(points);
  ASSERT_TRUE(fit.valid);
  EXPECT_TRUE(fit.alpha_negative);
  EXPECT_NEAR(fit.alpha_seconds, -1e-6, 1e-15);
}

TEST(HockneyFit, DegenerateInputIsInvalidWithAReason) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<std::vector<HockneyPoint>> cases = {
      {},                                    // nothing
      {{64, 1e-6}},                          // one point
      {{64, 1e-6}, {64, 2e-6}},              // one distinct size
      {{64, 2e-6}, {128, 1e-6}},             // time falls with size
      {{64, 1e-6}, {128, 1e-6}},             // flat: slope 0
      {{64, 1e-6}, {128, 0}},                // zero time
      {{64, 1e-6}, {-128, 2e-6}},            // negative size
      {{64, 1e-6}, {128, nan}},              // not finite
  };
  for (const auto& points : cases) {
    const HockneyFit fit = fit_hockney(points);
    EXPECT_FALSE(fit.valid);
    EXPECT_FALSE(fit.invalid_reason.empty());
    EXPECT_TRUE(std::isnan(hockney_time_seconds(fit, 100)));
    EXPECT_TRUE(std::isnan(hockney_beff_Bps(fit, seed_table_message_sizes())));
  }
  EXPECT_NE(fit_hockney(cases[2]).invalid_reason.find("2 distinct"), std::string::npos);
  EXPECT_NE(fit_hockney(cases[3]).invalid_reason.find("does not grow"), std::string::npos);
}

// ---- linear scaling ----

TEST(ScalingEfficiency, SeedEightDevicesAreNinetySixPercent) {
  expect_to_digits(mean(kSeedEightDevicesBps), 3.13237e10, 6);  // HPCC_FPGA's "b_eff = 3.13237e+10 B/s"
  EXPECT_NEAR(scaling_efficiency(3.13237e10, 8, 4.07e9), 0.962, 0.0005);
  expect_to_digits(scaling_efficiency(3.13237e10, 8, 4.0696e9), 0.9621, 4);
  // With the model reference computed rather than typed in.
  const double model_Bps = channel_model_beff_Bps(kBittware520NMeasured, seed_table_message_sizes());
  expect_to_digits(scaling_efficiency(3.13237e10, 8, model_Bps), 0.9621, 4);
}

TEST(ScalingEfficiency, BadReferenceGivesNaN) {
  EXPECT_TRUE(std::isnan(scaling_efficiency(1e10, 0, 1e9)));
  EXPECT_TRUE(std::isnan(scaling_efficiency(1e10, 8, 0)));
  EXPECT_TRUE(std::isnan(scaling_efficiency(1e10, 8, -1e9)));
  EXPECT_TRUE(std::isnan(scaling_efficiency(1e10, 8, std::numeric_limits<double>::infinity())));
}

TEST(ScalingEfficiency, CheckRowPassesAtOrAboveTheMinimum) {
  const std::string subject = scaling_subject("natural ring", 8);
  EXPECT_EQ(subject, "natural ring, 8 ranks");
  EXPECT_EQ(scaling_subject("random ring 2", 1), "random ring 2, 1 rank");

  const bws::CheckRow pass = linear_scaling_check_row(subject, 0.962, kDefaultMinEfficiency);
  EXPECT_EQ(pass.check, "beff.linear_scaling");
  EXPECT_EQ(pass.subject, subject);
  EXPECT_EQ(pass.kind, "model");
  EXPECT_DOUBLE_EQ(pass.measured, 0.962);
  EXPECT_DOUBLE_EQ(pass.expected, 1.0);
  EXPECT_DOUBLE_EQ(pass.lower, 0.8);
  EXPECT_TRUE(std::isinf(pass.upper) && pass.upper > 0);
  EXPECT_EQ(pass.unit, "");
  EXPECT_TRUE(pass.passed);

  EXPECT_TRUE(linear_scaling_check_row(subject, 0.8, 0.8).passed);
  EXPECT_TRUE(linear_scaling_check_row(subject, 1.3, 0.8).passed);  // above 1 is no failure
  EXPECT_FALSE(linear_scaling_check_row(subject, 0.7999, 0.8).passed);
  EXPECT_FALSE(linear_scaling_check_row(subject, std::numeric_limits<double>::quiet_NaN(), 0.8).passed);
}

TEST(ScalingEfficiency, LineThroughOriginFitsExactAndNoisyData) {
  std::vector<ScalingPoint> exact;
  for (double n : {1, 2, 4, 8, 16}) exact.push_back({n, 4.07e9 * n});
  OriginLineFit fit = fit_line_through_origin(exact);
  ASSERT_TRUE(fit.valid) << fit.invalid_reason;
  EXPECT_NEAR(fit.slope_Bps_per_rank, 4.07e9, 1e-3);
  EXPECT_NEAR(fit.r_squared, 1.0, 1e-12);

  // HPCC_FPGA's two runs: 1 device 3.95057e9, 8 devices 3.13237e10.
  const std::vector<ScalingPoint> seed = {{1, 3.95057e9}, {8, 3.13237e10}};
  fit = fit_line_through_origin(seed);
  ASSERT_TRUE(fit.valid);
  EXPECT_NEAR(fit.slope_Bps_per_rank, (3.95057e9 + 8 * 3.13237e10) / 65, 1e-3);
  EXPECT_GT(fit.r_squared, 0.99);
  EXPECT_LT(fit.r_squared, 1.0);
}

TEST(ScalingEfficiency, LineThroughOriginRejectsBadPoints) {
  EXPECT_FALSE(fit_line_through_origin(std::vector<ScalingPoint>{}).valid);
  EXPECT_FALSE(fit_line_through_origin(std::vector<ScalingPoint>{{0, 1e9}}).valid);
  EXPECT_FALSE(fit_line_through_origin(std::vector<ScalingPoint>{{2, -1e9}}).valid);
  EXPECT_FALSE(
      fit_line_through_origin(std::vector<ScalingPoint>{{2, std::numeric_limits<double>::quiet_NaN()}}).valid);
  const OriginLineFit one = fit_line_through_origin(std::vector<ScalingPoint>{{4, 1.6e10}});
  ASSERT_TRUE(one.valid);
  EXPECT_DOUBLE_EQ(one.slope_Bps_per_rank, 4e9);
  EXPECT_TRUE(std::isnan(one.r_squared));  // one point: no spread to explain
}

namespace bws::model {
namespace {

// A node table with one B/s column and valid.
Table node_rates(std::vector<double> rates) {
  Table t("x/nodes", {real_column("bytes", "B"), real_column("rate_Bps", "B/s"), int_column("valid")});
  for (double r : rates) t.add_row({{"bytes", 1000.0}, {"rate_Bps", r}, {"valid", std::int64_t{1}}});
  return t;
}

TEST(NodeCeilingCheck, ARateAboveTheCeilingOrInfiniteFailsNaNIsNotMeasured) {
  NodeCeiling ceiling;
  ceiling.cores = 2;
  ceiling.per_core_Bps = 1e9;  // ceiling 2e9 B/s
  std::vector<Table> tables = {node_rates({1.5e9, 2e9, 2.5e9, std::numeric_limits<double>::infinity(),
                                           std::numeric_limits<double>::quiet_NaN()})};
  const Table checks = enforce_node_ceiling(tables, "h", ceiling);
  ASSERT_EQ(checks.rows(), 2u);  // 2.5e9 and +inf
  EXPECT_DOUBLE_EQ(checks.get_double(0, "measured"), 2.5e9);
  EXPECT_DOUBLE_EQ(checks.get_double(0, "upper"), 2e9);
  EXPECT_EQ(checks.get_int(0, "passed"), 0);
  EXPECT_TRUE(std::isinf(checks.get_double(1, "measured")));
  EXPECT_EQ(checks.get_int(1, "passed"), 0);
  const Table& t = tables[0];
  EXPECT_EQ(t.get_int(0, "valid"), 1);
  EXPECT_EQ(t.get_int(1, "valid"), 1);  // equal to the ceiling passes
  EXPECT_EQ(t.get_int(2, "valid"), 0);
  EXPECT_EQ(t.get_int(3, "valid"), 0);
  EXPECT_EQ(t.get_int(4, "valid"), 1);
}

}  // namespace
}  // namespace bws::model
