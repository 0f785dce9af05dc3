// lib/model: HPCC_FPGA b_eff's channel model and the b_eff message sizes, against
// HPCC_FPGA's own numbers.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ModelSeedNumbers.hpp"
#include "TestSupport.hpp"
#include "core/Errors.hpp"
#include "model/ChannelModel.hpp"
#include "model/MessageSizes.hpp"

using namespace bws::model;
using namespace bws::test;

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
  expect_to_digits(channel_model_beff_Bps(kBittware520NMeasured, sizes), 4.0696e9, 5);  // HPCC_FPGA's "4.07"
  expect_to_digits(channel_model_one_way_beff_Bps(kBittware520N, sizes), 4.0696e9, 5);
  // n pairs scale linearly: HPCC_FPGA's 8 x 4.07 = 32.56 GB/s.
  expect_to_digits(channel_model_beff_pairs_Bps(kBittware520NMeasured, sizes, 8), 3.2557e10, 5);
}

TEST(ChannelModel, SeedMeasurementIsThreePercentUnderTheCorrectedModel) {
  const double measured_Bps = mean(kSeedOneDeviceBps);
  expect_to_digits(measured_Bps, 3.95057e9, 6);  // HPCC_FPGA's "b_eff = 3.95057e+09 B/s"
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
