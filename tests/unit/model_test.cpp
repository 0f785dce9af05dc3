// lib/model: the seed 002 channel model, b_eff message sizes, the Hockney fit
// and the linear-scaling check, against the seed's own numbers.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/Errors.hpp"
#include "model/ChannelModel.hpp"
#include "model/HockneyFit.hpp"
#include "model/MessageSizes.hpp"
#include "model/NodeCeiling.hpp"
#include "core/ResultColumns.hpp"
#include "model/ScalingEfficiency.hpp"

using namespace bws::model;

namespace {

// Seed 002, "The output of a test run on a single FPGA": MSize, transfer
// (seconds for looplength = 16384 exchanges) and B/s, in table order.
constexpr std::array<std::uint64_t, 21> kSeedSizes = {1,    2,    4,     8,     16,    32,     64,
                                                      128,  256,  512,   1024,  2048,  4096,   16384,
                                                      32768, 65536, 131072, 262144, 524288, 1048576, 2097152};
constexpr double kSeedLooplength = 16384;
constexpr std::array<double, 21> kSeedOneDeviceTransferSeconds = {
    2.02084e-02, 2.02076e-02, 2.02078e-02, 2.02082e-02, 2.02075e-02, 2.02074e-02, 2.02074e-02,
    2.03811e-02, 2.08290e-02, 2.17212e-02, 2.34488e-02, 2.67959e-02, 3.35864e-02, 7.41481e-02,
    1.28218e-01, 2.36447e-01, 4.52898e-01, 8.85840e-01, 1.75159e+00, 3.48309e+00, 6.94615e+00};
constexpr std::array<double, 21> kSeedOneDeviceBps = {
    1.62150e+06, 3.24313e+06, 6.48621e+06, 1.29722e+07, 2.59453e+07, 5.18907e+07, 1.03781e+08,
    2.05794e+08, 4.02737e+08, 7.72389e+08, 1.43097e+09, 2.50444e+09, 3.99620e+09, 7.24052e+09,
    8.37438e+09, 9.08229e+09, 9.48329e+09, 9.69693e+09, 9.80814e+09, 9.86474e+09, 9.89317e+09};
// "Scaling the benchmark to 8 FPGAs": B/s column.
constexpr std::array<double, 21> kSeedEightDevicesBps = {
    1.21323e+07, 2.42639e+07, 4.85291e+07, 9.70579e+07, 1.94109e+08, 3.88224e+08, 7.76494e+08,
    1.54381e+09, 3.03525e+09, 5.84292e+09, 1.08967e+10, 1.91204e+10, 3.08620e+10, 5.69446e+10,
    6.63023e+10, 7.22459e+10, 7.56337e+10, 7.74485e+10, 7.83910e+10, 7.88720e+10, 7.91180e+10};

template <std::size_t N>
double mean(const std::array<double, N>& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return sum / N;
}

// Equal to `expected` as printed to its significant digits: within half a
// unit of its last digit (7.7718e9 -> +-5e4).
void expect_to_digits(double actual, double expected, int significant_digits) {
  const double unit = std::pow(10.0, std::floor(std::log10(std::fabs(expected))) - (significant_digits - 1));
  EXPECT_NEAR(actual, expected, unit / 2) << "to " << significant_digits << " significant digits";
}

std::string usage_error_of(auto&& call) {
  try {
    call();
  } catch (const bws::UsageError& e) {
    return e.what();
  }
  return "(no UsageError)";
}

}  // namespace

// ---- channel model ----

TEST(ChannelModel, PresetIsTheSeeds520N) {
  EXPECT_EQ(kBittware520N.channels * kBittware520N.channel_width_bytes, 64u);  // c*w = 64 B per clock
  EXPECT_DOUBLE_EQ(kBittware520N.frequency_Hz, 156.25e6);
  EXPECT_DOUBLE_EQ(kBittware520N.latency_seconds, 520e-9);
  EXPECT_DOUBLE_EQ(kBittware520N.sequential_factor, 1);
  EXPECT_DOUBLE_EQ(kBittware520NMeasured.sequential_factor, 2);
}

TEST(ChannelModel, TimePerExchangeCountsWholeCycles) {
  // 1..64 B: one 6.4 ns cycle + 520 ns; 65 B: two cycles.
  EXPECT_EQ(channel_cycles(kBittware520N, 0), 0u);
  EXPECT_EQ(channel_cycles(kBittware520N, 1), 1u);
  EXPECT_EQ(channel_cycles(kBittware520N, 64), 1u);
  EXPECT_EQ(channel_cycles(kBittware520N, 65), 2u);
  EXPECT_EQ(channel_cycles(kBittware520N, UINT64_MAX), UINT64_MAX / 64 + 1);
  EXPECT_NEAR(channel_time_per_exchange_seconds(kBittware520N, 1), 526.4e-9, 1e-18);
  EXPECT_NEAR(channel_time_per_exchange_seconds(kBittware520N, 65), 532.8e-9, 1e-18);
  EXPECT_NEAR(channel_time_per_exchange_seconds(kBittware520NMeasured, 65), 2 * 532.8e-9, 1e-18);
  // b = 2L/t, and L/t is half of it.
  EXPECT_DOUBLE_EQ(channel_bandwidth_Bps(kBittware520N, 4096), 2 * 4096 / (64 / 156.25e6 + 520e-9));
  EXPECT_DOUBLE_EQ(channel_one_way_bandwidth_Bps(kBittware520N, 4096),
                   channel_bandwidth_Bps(kBittware520N, 4096) / 2);
  EXPECT_EQ(channel_bandwidth_Bps(kBittware520N, 0), 0.0);
}

TEST(ChannelModel, HpccFpgaSizesGiveTheAnchorNumbers) {
  const auto sizes = hpcc_fpga_message_sizes();
  expect_to_digits(channel_model_beff_Bps(kBittware520N, sizes), 7.7718e9, 5);           // 2L/t
  expect_to_digits(channel_model_one_way_beff_Bps(kBittware520N, sizes), 3.8859e9, 5);  // L/t
}

TEST(ChannelModel, SeedTableSizesGiveTheAnchorNumbers) {
  const auto sizes = seed_table_message_sizes();
  expect_to_digits(channel_model_beff_Bps(kBittware520N, sizes), 8.1392e9, 5);
  expect_to_digits(channel_model_beff_Bps(kBittware520NMeasured, sizes), 4.0696e9, 5);  // the seed's "4.07"
  expect_to_digits(channel_model_one_way_beff_Bps(kBittware520N, sizes), 4.0696e9, 5);
  // n pairs scale linearly: the seed's 8 x 4.07 = 32.56 GB/s.
  expect_to_digits(channel_model_beff_pairs_Bps(kBittware520NMeasured, sizes, 8), 3.2557e10, 5);
}

TEST(ChannelModel, SeedMeasurementIsThreePercentUnderTheCorrectedModel) {
  const double measured_Bps = mean(kSeedOneDeviceBps);
  expect_to_digits(measured_Bps, 3.95057e9, 6);  // the seed's "b_eff = 3.95057e+09 B/s"
  // The B/s column is 2 * L * looplength / transfer, so the times give it too.
  std::array<double, 21> from_times{};
  for (std::size_t i = 0; i < 21; ++i)
    from_times[i] = 2.0 * kSeedSizes[i] * kSeedLooplength / kSeedOneDeviceTransferSeconds[i];
  expect_to_digits(mean(from_times), 3.95057e9, 6);

  const double model_Bps = channel_model_beff_Bps(kBittware520NMeasured, seed_table_message_sizes());
  EXPECT_NEAR((model_Bps - measured_Bps) / model_Bps, 0.0292, 0.0005);
}

TEST(ChannelModel, BadParametersAndEmptySizesThrow) {
  ChannelModelParams p = kBittware520N;
  p.channels = 0;
  EXPECT_THROW(channel_time_per_exchange_seconds(p, 1), std::invalid_argument);
  p = kBittware520N;
  p.frequency_Hz = 0;
  EXPECT_THROW(channel_bandwidth_Bps(p, 1), std::invalid_argument);
  p = kBittware520N;
  p.sequential_factor = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(channel_bandwidth_Bps(p, 1), std::invalid_argument);
  EXPECT_THROW(channel_model_beff_Bps(kBittware520N, std::vector<std::uint64_t>{}), std::invalid_argument);
}

// ---- message sizes ----

TEST(MessageSizes, FixedListsOfTheSeedAndHpccFpga) {
  const auto hpcc = hpcc_fpga_message_sizes();
  ASSERT_EQ(hpcc.size(), 21u);
  for (std::size_t i = 0; i < hpcc.size(); ++i) EXPECT_EQ(hpcc[i], std::uint64_t{1} << i);
  const auto table = seed_table_message_sizes();
  EXPECT_EQ(table, std::vector<std::uint64_t>(kSeedSizes.begin(), kSeedSizes.end()));
}

TEST(MessageSizes, GrowthTwoIsEightKiBToOneMiB) {
  const std::vector<std::uint64_t> expected = {1,     2,     4,      8,      16,     32,     64,
                                               128,   256,   512,    1024,   2048,   4096,   8192,
                                               16384, 32768, 65536,  131072, 262144, 524288, 1048576};
  EXPECT_EQ(beff_message_sizes(2.0), expected);
  EXPECT_EQ(beff_message_sizes(kBeffDefaultGrowth).size(), kBeffSizeCount);
  EXPECT_EQ(beff_message_sizes_for_max_bytes(1 << 20), expected);
}

TEST(MessageSizes, GrowthForMaxBytesEndsExactlyAtMax) {
  EXPECT_NEAR(growth_for_max_bytes(1 << 20), 2.0, 1e-12);
  for (std::uint64_t max_bytes : {std::uint64_t{2} << 20, std::uint64_t{100000000}, std::uint64_t{5000},
                                  std::uint64_t{4104}, std::uint64_t{4105}, std::uint64_t{123457},
                                  kBeffMaxBytesLimit}) {
    const auto sizes = beff_message_sizes(growth_for_max_bytes(max_bytes));
    ASSERT_EQ(sizes.size(), 21u) << max_bytes;
    EXPECT_EQ(sizes.back(), max_bytes);
    EXPECT_EQ(sizes[12], 4096u);
    EXPECT_EQ(beff_message_sizes_for_max_bytes(max_bytes).back(), max_bytes);
  }
}

TEST(MessageSizes, StrictlyIncreasingForEveryAcceptedMax) {
  EXPECT_EQ(beff_smallest_max_bytes(), 4104u);
  for (std::uint64_t max_bytes = beff_smallest_max_bytes(); max_bytes < 20000; ++max_bytes) {
    const auto sizes = beff_message_sizes_for_max_bytes(max_bytes);
    for (std::size_t i = 1; i < sizes.size(); ++i) ASSERT_LT(sizes[i - 1], sizes[i]) << max_bytes;
  }
}

TEST(MessageSizes, MaxBytesAtOrBelowFourKiBIsAUsageError) {
  for (std::uint64_t max_bytes : {0, 1, 4096}) {
    const std::string what = usage_error_of([&] { growth_for_max_bytes(max_bytes); });
    EXPECT_NE(what.find("--beff.max-bytes: " + std::to_string(max_bytes) +
                        " must be above 4096 (the 13 doubling sizes end at 4 KiB); allowed: 4104.."),
              std::string::npos)
        << what;
  }
  // Just above 4 KiB two rounded sizes coincide.
  EXPECT_NE(usage_error_of([] { growth_for_max_bytes(4097); }).find("too close to 4096"), std::string::npos);
  EXPECT_NE(usage_error_of([] { growth_for_max_bytes(4103); }).find("allowed: 4104.."), std::string::npos);
  // Above the caller's limit.
  EXPECT_NE(usage_error_of([] { growth_for_max_bytes(1 << 21, 1 << 20); }).find("allowed: 4104..1048576"),
            std::string::npos);
}

TEST(MessageSizes, GrowthFactorNotAboveOneIsAUsageError) {
  for (double a : {1.0, 0.5, 0.0, -2.0, std::numeric_limits<double>::quiet_NaN(),
                   std::numeric_limits<double>::infinity()})
    EXPECT_NE(usage_error_of([&] { beff_message_sizes(a); }).find("b_eff growth factor a"), std::string::npos) << a;
  EXPECT_NE(usage_error_of([] { beff_message_sizes(1.00001); }).find("round to the same"), std::string::npos);
  EXPECT_NE(usage_error_of([] { beff_message_sizes(100.0); }).find("above the limit"), std::string::npos);
  EXPECT_NE(usage_error_of([] { beff_message_sizes(2.0, 1 << 19); }).find("above the limit"), std::string::npos);
}

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
  expect_to_digits(mean(kSeedEightDevicesBps), 3.13237e10, 6);  // the seed's "b_eff = 3.13237e+10 B/s"
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

  // The seed's two runs: 1 device 3.95057e9, 8 devices 3.13237e10.
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
