// b_eff (lib/beff): ring construction, options and every bad input, payload
// stamps and checks, results from hand-made samples (b(L), the b_eff mean,
// per rank, latency, best of methods, Hockney, scaling), the calibration
// step, the tables and seed 002's printed table.
#include <gtest/gtest.h>

#include "run/TestHooks.hpp"
#include <stdlib.h>

#include "TestSupport.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "beff/BeffBenchmark.hpp"
#include "beff/BeffChannelCheck.hpp"
#include "beff/BeffPayload.hpp"
#include "beff/BeffPlan.hpp"
#include "beff/BeffResults.hpp"
#include "beff/BeffRingRun.hpp"
#include "beff/BeffRings.hpp"
#include "beff/BeffTables.hpp"
#include "core/Config.hpp"
#include "core/Errors.hpp"
#include "core/ResultColumns.hpp"

namespace bws::beff {
namespace {

using bws::test::usage_error_of;

constexpr std::uint64_t kKiB = 1024;
constexpr std::uint64_t kMiB = 1024 * 1024;
constexpr std::uint64_t kGiB = 1024 * kMiB;

// ---- rings ----

void expect_consistent_ring(const std::vector<int>& order, int n) {
  ASSERT_TRUE(is_ring_of_all_ranks(order, n));
  std::set<int> seen(order.begin(), order.end());
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) {
    const RingPlace me = place_in_ring(order, r);
    EXPECT_EQ(order[static_cast<std::size_t>(me.position)], r);
    EXPECT_EQ(place_in_ring(order, me.right).left, r) << "left(right(" << r << "))";
    EXPECT_EQ(place_in_ring(order, me.left).right, r) << "right(left(" << r << "))";
  }
}

TEST(BeffRings, NaturalRingIsRankOrder) {
  for (int n : {1, 2, 3, 5, 8}) {
    const Ring ring = natural_ring(n);
    EXPECT_EQ(ring.kind, RingKind::Natural);
    EXPECT_EQ(ring.index, 0);
    for (int r = 0; r < n; ++r) EXPECT_EQ(ring.order[static_cast<std::size_t>(r)], r);
    expect_consistent_ring(ring.order, n);
  }
  const RingPlace p = place_in_ring(natural_ring(5).order, 0);
  EXPECT_EQ(p.left, 4);
  EXPECT_EQ(p.right, 1);
  EXPECT_THROW(natural_ring(0), std::invalid_argument);
}

TEST(BeffRings, OneRankExchangesWithItselfTwoRanksWithEachOther) {
  const RingPlace alone = place_in_ring(natural_ring(1).order, 0);
  EXPECT_EQ(alone.left, 0);
  EXPECT_EQ(alone.right, 0);
  const RingPlace pair = place_in_ring(natural_ring(2).order, 1);
  EXPECT_EQ(pair.left, 0);
  EXPECT_EQ(pair.right, 0);
}

TEST(BeffRings, RandomRingsHoldEveryRankOnceAndFollowTheSeed) {
  for (int n : {1, 2, 3, 5, 8}) {
    const std::vector<Ring> rings = random_rings(n, 4, 12345);
    ASSERT_EQ(rings.size(), 4u);
    for (std::size_t k = 0; k < rings.size(); ++k) {
      EXPECT_EQ(rings[k].index, static_cast<int>(k) + 1);
      EXPECT_EQ(rings[k].kind, RingKind::Random);
      expect_consistent_ring(rings[k].order, n);
    }
  }
  // Same seed, same rings; ring k does not depend on how many are drawn.
  const auto a = random_rings(8, 3, 99), b = random_rings(8, 5, 99), c = random_rings(8, 3, 100);
  for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(a[k].order, b[k].order);
  EXPECT_NE(a[0].order, c[0].order);
  EXPECT_NE(a[0].order, a[1].order);
  EXPECT_TRUE(random_rings(8, 0, 1).empty());
}

TEST(BeffRings, RandomPermutationsAreSpreadOverAllPositions) {
  // Each of 5 ranks lands in each of 5 positions about 1/5 of the time.
  RingRandom random(7);
  std::vector<std::vector<int>> count(5, std::vector<int>(5, 0));
  const int draws = 20000;
  for (int i = 0; i < draws; ++i) {
    const auto order = random.permutation(5);
    for (int p = 0; p < 5; ++p) ++count[static_cast<std::size_t>(order[static_cast<std::size_t>(p)])][static_cast<std::size_t>(p)];
  }
  for (const auto& row : count)
    for (int c : row) EXPECT_NEAR(c, draws / 5, draws / 5 / 10);
  for (int i = 0; i < 1000; ++i) EXPECT_LT(random.below(3), 3u);
  EXPECT_EQ(random.below(1), 0u);
}

TEST(BeffRings, PlaceOfAMissingRankThrows) {
  EXPECT_THROW(place_in_ring({0, 1, 2}, 3), std::invalid_argument);
  EXPECT_FALSE(is_ring_of_all_ranks({0, 1, 1}, 3));
  EXPECT_FALSE(is_ring_of_all_ranks({0, 1}, 3));
  EXPECT_FALSE(is_ring_of_all_ranks({0, 3, 1}, 3));
}

TEST(BeffRings, ReferencePairCrossesNodesWhenThereAreTwo) {
  ReferencePair one_node = choose_reference_pair({0, 0, 0, 0});
  EXPECT_EQ(one_node.first, 0);
  EXPECT_EQ(one_node.second, 1);
  EXPECT_FALSE(one_node.across_nodes);
  ReferencePair two_nodes = choose_reference_pair({0, 0, 1, 1});
  EXPECT_EQ(two_nodes.second, 2);
  EXPECT_TRUE(two_nodes.across_nodes);
  EXPECT_EQ(choose_reference_pair({0, 0, 0, 2, 1}).second, 3);
  EXPECT_THROW(choose_reference_pair({0}), std::invalid_argument);
}

// ---- options ----

RankLayout layout_with(std::uint64_t node_memory_bytes = 64 * kGiB, int ranks_on_node = 1, bool quick = false,
                       int size = 4) {
  RankLayout l;
  l.size = size;
  l.node_of_rank.assign(static_cast<std::size_t>(size), 0);
  l.node_memory_bytes = node_memory_bytes;
  l.ranks_on_node = ranks_on_node;
  l.quick = quick;
  l.host = "testhost";
  return l;
}

BeffParams plan_with(std::initializer_list<std::pair<const char*, const char*>> options,
                     const RankLayout& layout = layout_with()) {
  Config config;
  for (const auto& [key, value] : options) config.set(key, value);
  return plan_beff(config, layout);
}

std::string plan_error(std::initializer_list<std::pair<const char*, const char*>> options,
                       const RankLayout& layout = layout_with()) {
  const std::string message = usage_error_of([&] { plan_with(options, layout); });
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  return message;
}

TEST(BeffPlan, DefaultsAreTheSeedsSizesAndIssueThreesValues) {
  const BeffParams p = plan_with({});
  const std::vector<std::uint64_t> expected = {1,    2,    4,     8,     16,    32,     64,     128,    256,    512,   1024,
                                               2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576};
  EXPECT_EQ(p.sizes_bytes, expected);
  EXPECT_FALSE(p.sizes_explicit);
  EXPECT_EQ(p.random_rings, 3);
  EXPECT_EQ(p.seed, 12345u);
  EXPECT_FALSE(p.seed_auto);
  EXPECT_DOUBLE_EQ(p.min_time_seconds, 0.01);
  EXPECT_EQ(p.reps, 10);
  EXPECT_EQ(p.methods, (std::vector<ExchangeMethod>{ExchangeMethod::Sendrecv, ExchangeMethod::Nonblocking}));
  EXPECT_DOUBLE_EQ(p.min_efficiency, 0.8);
  EXPECT_EQ(p.corrupt_rank, -1);
  EXPECT_NE(describe_beff(p).find("21 sizes"), std::string::npos) << describe_beff(p);
}

TEST(BeffPlan, QuickShortensTheDefaultMinTimeOnly) {
  EXPECT_DOUBLE_EQ(plan_with({}, layout_with(64 * kGiB, 1, true)).min_time_seconds, 0.001);
  Config config;
  config.set(kMinTimeOption, "0.05");
  EXPECT_DOUBLE_EQ(plan_beff(config, layout_with(64 * kGiB, 1, true)).min_time_seconds, 0.05);
}

TEST(BeffPlan, MaxBytesSetsTheGrowthSoTheLastSizeIsIt) {
  const BeffParams p = plan_with({{kMaxBytesOption, "16M"}});
  ASSERT_EQ(p.sizes_bytes.size(), 21u);
  EXPECT_EQ(p.sizes_bytes[12], 4096u);
  EXPECT_EQ(p.sizes_bytes.back(), 16 * kMiB);
  // a = (16M/4K)^(1/8) = 2^1.5: 4096 * 2^1.5 = 11585.2 -> 11585
  EXPECT_EQ(p.sizes_bytes[13], 11585u);
  EXPECT_TRUE(std::is_sorted(p.sizes_bytes.begin(), p.sizes_bytes.end()));
}

TEST(BeffPlan, AnExplicitSizeListIsSortedAndUsedAsGiven) {
  const BeffParams p = plan_with({{kSizesOption, " 64K, 8,1K "}});
  EXPECT_TRUE(p.sizes_explicit);
  EXPECT_EQ(p.sizes_bytes, (std::vector<std::uint64_t>{8, 1024, 65536}));
  EXPECT_EQ(plan_with({{kSizesOption, "100"}}).sizes_bytes, (std::vector<std::uint64_t>{100}));
  // The stored /config names every option: max-bytes at its default value is no conflict.
  EXPECT_EQ(plan_with({{kSizesOption, "8"}, {kMaxBytesOption, "1M"}}).sizes_bytes.size(), 1u);
}

TEST(BeffPlan, SeedsMethodsAndTheOtherNumbers) {
  const BeffParams p = plan_with({{kSeedOption, "42"},
                                  {kMethodsOption, "nonblocking"},
                                  {kRepsOption, "3"},
                                  {kRandomRingsOption, "0"},
                                  {kMinTimeOption, "2.5e-3"},
                                  {kMinEfficiencyOption, "1"}});
  EXPECT_EQ(p.seed, 42u);
  EXPECT_EQ(p.methods, std::vector<ExchangeMethod>{ExchangeMethod::Nonblocking});
  EXPECT_EQ(p.reps, 3);
  EXPECT_EQ(p.random_rings, 0);
  EXPECT_DOUBLE_EQ(p.min_time_seconds, 2.5e-3);
  EXPECT_DOUBLE_EQ(p.min_efficiency, 1.0);
  EXPECT_TRUE(plan_with({{kSeedOption, "auto"}}).seed_auto);
  EXPECT_LE(plan_with({{kSeedOption, "AUTO"}}).seed, (std::uint64_t{1} << 63) - 1);
  EXPECT_EQ(plan_with({{kMethodsOption, "sendrecv, sendrecv"}}).methods.size(), 1u);
}

TEST(BeffPlan, MemoryLimitsTheLargestMessage) {
  // 1 GiB node, 4 ranks: 4 buffers each within 40% -> 0.4 GiB / 16 = 26843545 bytes.
  const RankLayout small = layout_with(kGiB, 4);
  EXPECT_EQ(plan_with({}, small).message_limit_bytes, 26843545u);
  EXPECT_EQ(plan_with({{kSizesOption, "26843545"}}, small).sizes_bytes.back(), 26843545u);
  const std::string big = plan_error({{kSizesOption, "8,26843546"}}, small);
  EXPECT_NE(big.find("--beff.sizes"), std::string::npos) << big;
  EXPECT_NE(big.find("above what memory allows"), std::string::npos) << big;
  EXPECT_NE(big.find("allowed: 1..26843545"), std::string::npos) << big;
  const std::string max = plan_error({{kMaxBytesOption, "32M"}}, small);
  EXPECT_NE(max.find("--beff.max-bytes"), std::string::npos) << max;
  EXPECT_NE(max.find("allowed: 4104..26843545"), std::string::npos) << max;
  // MPI counts bytes in an int, whatever the memory.
  EXPECT_NE(plan_error({{kSizesOption, "2G"}}, layout_with(1024 * kGiB, 1)).find("2147483647"), std::string::npos);
  // Unknown memory: MPI's limit only.
  EXPECT_EQ(plan_with({}, layout_with(0, 1)).message_limit_bytes, 2147483647u);
}

TEST(BeffPlan, EveryBadInputIsOneLineNamingTheOptionAndTheRange) {
  struct Case {
    const char* key;
    const char* value;
    const char* needle;  // besides the option name
  };
  const std::vector<Case> cases = {
      {kSizesOption, "0", "must be positive"},
      {kSizesOption, "8,0", "must be positive"},
      {kSizesOption, "-8", "is negative"},
      {kSizesOption, ",", "empty size list"},
      {kSizesOption, " , ", "empty size list"},
      {kSizesOption, "1K,,2K", "empty entry"},
      {kSizesOption, "1K,1024", "given twice"},
      {kSizesOption, "abc", "is not a size"},
      {kSizesOption, "64T", "allowed: 1.."},
      {kMaxBytesOption, "4096", "allowed: 4104.."},  // a = 1
      {kMaxBytesOption, "4K", "allowed: 4104.."},
      {kMaxBytesOption, "100", "allowed: 4104.."},
      {kMaxBytesOption, "4100", "allowed: 4104.."},  // a too close to 1
      {kMaxBytesOption, "0", "allowed: 4104.."},
      {kMethodsOption, "bogus", "unknown method 'bogus'"},
      {kMethodsOption, "sendrecv,isend", "unknown method 'isend'"},
      {kMethodsOption, "", "empty entry"},
      {kHugePagesOption, "maybe", "allowed: on, off"},
      {kRepsOption, "0", "allowed: 1..100000"},
      {kRepsOption, "-3", "allowed: 1..100000"},
      {kRepsOption, "100001", "allowed: 1..100000"},
      {kRepsOption, "ten", "allowed: 1..100000"},
      {kMinTimeOption, "0", "allowed: > 0 and <= 60"},
      {kMinTimeOption, "-0.01", "allowed: > 0 and <= 60"},
      {kMinTimeOption, "61", "allowed: > 0 and <= 60"},
      {kMinTimeOption, "10ms", "allowed: > 0 and <= 60"},
      {kMinTimeOption, "nan", "allowed: > 0 and <= 60"},
      {kRandomRingsOption, "1001", "allowed: 0..1000"},
      {kRandomRingsOption, "-1", "allowed: 0..1000"},
      {kSeedOption, "-1", "or auto"},
      {kSeedOption, "x", "or auto"},
      {kSeedOption, "9223372036854775808", "or auto"},
      {kMinEfficiencyOption, "0", "allowed: > 0 and <= 1"},
      {kMinEfficiencyOption, "1.5", "allowed: > 0 and <= 1"},
      {kMinEfficiencyOption, "-0.5", "allowed: > 0 and <= 1"},
  };
  for (const Case& c : cases) {
    const std::string message = plan_error({{c.key, c.value}});
    EXPECT_NE(message.find(std::string("--") + c.key), std::string::npos) << c.key << "=" << c.value << ": " << message;
    EXPECT_NE(message.find(c.needle), std::string::npos) << c.key << "=" << c.value << ": " << message;
  }
  const std::string both = plan_error({{kSizesOption, "8"}, {kMaxBytesOption, "2M"}});
  EXPECT_NE(both.find("--beff.max-bytes and --beff.sizes both given"), std::string::npos) << both;
}

TEST(BeffPlan, TheCorruptionHookIsReadFromTheEnvironment) {
  if (!bws::survey::test_hooks_compiled()) {
    setenv(kCorruptEnvironment, "2", 1);  // a build for users ignores it
    EXPECT_EQ(plan_with({}).corrupt_rank, -1);
    unsetenv(kCorruptEnvironment);
    GTEST_SKIP() << "a build without test hooks (-DBWS_TEST_HOOKS=OFF) ignores " << kCorruptEnvironment;
  }
  setenv(kCorruptEnvironment, "2", 1);
  EXPECT_EQ(plan_with({}).corrupt_rank, 2);
  EXPECT_NE(describe_beff(plan_with({})).find("TEST HOOK"), std::string::npos);
  setenv(kCorruptEnvironment, "4", 1);  // 4 ranks: 0..3
  EXPECT_NE(plan_error({}).find(kCorruptEnvironment), std::string::npos);
  unsetenv(kCorruptEnvironment);
  EXPECT_EQ(plan_with({}).corrupt_rank, -1);
}

TEST(BeffPlan, OptionsAreDeclaredWithTheirDefaults) {
  boost::program_options::options_description desc;
  make_beff_benchmark()->add_options(desc);
  for (const char* key : {kMaxBytesOption, kSizesOption, kRandomRingsOption, kSeedOption, kMinTimeOption, kRepsOption,
                          kMethodsOption, kMinEfficiencyOption})
    EXPECT_NE(desc.find_nothrow(key, false), nullptr) << key;
}

// ---- payload ----

class BeffPayloadTest : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(BeffPayloadTest, ACorrectMessagePassesAndEveryWrongOneIsCaught) {
  const std::uint64_t L = GetParam();
  std::vector<std::byte> message(L);
  const PayloadStamp good{3, 1000, L, Direction::Rightward};
  stamp_message(message.data(), L, good);
  EXPECT_EQ(check_message(message.data(), L, good), PayloadProblem::None);

  PayloadStamp stale = good;
  stale.iteration = 999;
  EXPECT_EQ(check_message(message.data(), L, stale), PayloadProblem::Stale) << "the receiver expected 999";
  stamp_message(message.data(), L, stale);
  EXPECT_EQ(check_message(message.data(), L, good), PayloadProblem::Stale);

  PayloadStamp other_direction = good;
  other_direction.direction = Direction::Leftward;
  stamp_message(message.data(), L, other_direction);
  EXPECT_EQ(check_message(message.data(), L, good), PayloadProblem::WrongDirection);

  PayloadStamp misrouted = good;
  misrouted.sender = 4;
  stamp_message(message.data(), L, misrouted);
  // A short message carries no readable fields: wrong, but not nameable.
  EXPECT_EQ(check_message(message.data(), L, good),
            L >= kShortMessageBytes ? PayloadProblem::Misrouted : PayloadProblem::Corrupted);

  // One flipped bit in the first, the last and (when there is one) a middle stamp.
  for (std::uint64_t at : {std::uint64_t{0}, L - 1, std::uint64_t{4096 + 5}}) {
    if (at >= L) continue;
    stamp_message(message.data(), L, good);
    message[at] ^= std::byte{0x10};
    EXPECT_NE(check_message(message.data(), L, good), PayloadProblem::None) << "byte " << at;
  }
}

INSTANTIATE_TEST_SUITE_P(BeffMessageSizes, BeffPayloadTest,
                         ::testing::Values(2, 3, 8, 15, 16, 31, 32, 33, 100, 4095, 4096, 4097, 4128, 8192 + 17,
                                           1048576));

TEST(BeffPayload, StampsSitAtFirstLastAndEvery4096thByte) {
  const std::uint64_t L = 3 * 4096 + 100;
  std::vector<std::byte> message(L, std::byte{0});
  stamp_message(message.data(), L, {1, 2, L, Direction::Leftward});
  auto stamped = [&](std::uint64_t at) {
    return std::any_of(message.begin() + static_cast<std::ptrdiff_t>(at),
                       message.begin() + static_cast<std::ptrdiff_t>(at + kStampBytes),
                       [](std::byte b) { return b != std::byte{0}; });
  };
  for (std::uint64_t at : {std::uint64_t{0}, std::uint64_t{4096}, std::uint64_t{8192}, std::uint64_t{12288},
                           L - kStampBytes})
    EXPECT_TRUE(stamped(at)) << at;
  // Bytes between stamps are not written: the stamp costs a few stores per page.
  const std::vector<std::uint64_t> starts = {0, 4096, 8192, 12288, L - kStampBytes};
  for (std::uint64_t i = 0; i < L; ++i) {
    const bool in_stamp = std::any_of(starts.begin(), starts.end(),
                                      [&](std::uint64_t s) { return i >= s && i < s + kStampBytes; });
    if (!in_stamp) {
      ASSERT_EQ(message[i], std::byte{0}) << "byte " << i;
    }
  }
  // A stamp copied to another offset fails its hash.
  std::memcpy(message.data() + 4096, message.data(), kStampBytes);
  EXPECT_EQ(check_message(message.data(), L, {1, 2, L, Direction::Leftward}), PayloadProblem::Corrupted);
}

TEST(BeffPayload, WrongSizeIsNamed) {
  // A 2048-byte message in a buffer that last held a 4096-byte one: the
  // first stamp, where both sizes put one, names the size.
  std::vector<std::byte> message(4096);
  stamp_message(message.data(), 4096, {0, 7, 4096, Direction::Rightward});
  stamp_message(message.data(), 2048, {0, 7, 2048, Direction::Rightward});
  EXPECT_EQ(check_message(message.data(), 4096, {0, 7, 4096, Direction::Rightward}), PayloadProblem::WrongSize);
}

TEST(BeffPayload, TallyCountsByProblem) {
  PayloadTally tally;
  tally.add(PayloadProblem::None);
  EXPECT_EQ(tally.total(), 0u);
  EXPECT_EQ(tally.describe(), "");
  tally.add(PayloadProblem::Stale);
  tally.add(PayloadProblem::Stale);
  tally.add(PayloadProblem::Misrouted);
  EXPECT_EQ(tally.total(), 3u);
  EXPECT_EQ(tally.of(PayloadProblem::Stale), 2u);
  EXPECT_EQ(tally.describe(), "1 misrouted (wrong sender), 2 stale (wrong iteration)");
}

// ---- results ----

MethodSamples samples(ExchangeMethod method, std::vector<double> t_max, bool valid = true) {
  MethodSamples m;
  m.method = method;
  for (double t : t_max) m.reps.push_back({t * 0.9, t * 0.95, t});
  if (!valid) {
    m.payload.tally.add(PayloadProblem::Stale);
    m.payload.failing_ranks = 1;
    m.payload.first_failing_rank = 2;
  }
  return m;
}

SizeMeasurement size_of(std::uint64_t L, std::uint64_t looplength, std::vector<MethodSamples> methods) {
  return SizeMeasurement{L, looplength, std::move(methods)};
}

// Two sizes on 4 ranks, by hand:
//   L = 8, looplength 100: best t_max 0.0075 (nonblocking, repetition 1):
//     b = 4 * 2*8 * 100 / 0.0075 = 853333.33 B/s; t per exchange 75 us.
//   L = 1024, looplength 10: best 0.004 (sendrecv): b = 4 * 2048 * 10 / 0.004 = 20480000 B/s.
//   b_eff = (853333.33 + 20480000) / 2 = 10666666.67 B/s; per rank 2666666.67 B/s.
RingMeasurement hand_made_ring() {
  RingMeasurement m;
  m.ring = natural_ring(4);
  m.sizes.push_back(size_of(8, 100,
                            {samples(ExchangeMethod::Sendrecv, {0.010, 0.008, 0.009}),
                             samples(ExchangeMethod::Nonblocking, {0.0085, 0.0075})}));
  m.sizes.push_back(size_of(1024, 10,
                            {samples(ExchangeMethod::Sendrecv, {0.004}), samples(ExchangeMethod::Nonblocking, {0.005})}));
  return m;
}

TEST(BeffResults, AggregateBandwidthIsRanksTimes2LTimesLooplengthOverTheSlowestTime) {
  EXPECT_EQ(sample_bytes(4, 8, 100), 6400u);
  EXPECT_DOUBLE_EQ(sample_bandwidth_Bps(4, 8, 100, 0.0075), 6400 / 0.0075);
  EXPECT_DOUBLE_EQ(sample_bandwidth_Bps(1, 1, 16384, 2.02084e-02), 2.0 * 16384 / 2.02084e-02);
}

TEST(BeffResults, BestOfRepetitionsAndMethods) {
  const RingMeasurement m = hand_made_ring();
  const SizeResult small = best_of_size(m.sizes[0], 4);
  EXPECT_EQ(small.best_method, ExchangeMethod::Nonblocking);
  EXPECT_EQ(small.best_repetition, 1);
  EXPECT_DOUBLE_EQ(small.t_best_seconds, 0.0075);
  EXPECT_DOUBLE_EQ(small.t_exchange_seconds, 75e-6);
  EXPECT_NEAR(small.b_Bps, 853333.3333, 1e-3);
  EXPECT_NEAR(small.b_per_rank_Bps, 213333.3333, 1e-3);
  EXPECT_TRUE(small.valid);
  const SizeResult large = best_of_size(m.sizes[1], 4);
  EXPECT_EQ(large.best_method, ExchangeMethod::Sendrecv);
  EXPECT_DOUBLE_EQ(large.b_Bps, 20480000.0);
}

TEST(BeffResults, BeffIsThePlainMeanPerRankIsOverNAndLatencyIsThe8ByteExchange) {
  const RingResult r = ring_result(hand_made_ring());
  EXPECT_EQ(r.ranks, 4);
  ASSERT_EQ(r.sizes.size(), 2u);
  EXPECT_NEAR(r.b_eff_Bps, (853333.3333333 + 20480000.0) / 2, 1e-3);
  EXPECT_NEAR(r.b_eff_Bps, 10666666.6667, 1e-3);
  EXPECT_NEAR(r.b_eff_per_rank_Bps, 2666666.6667, 1e-3);
  EXPECT_DOUBLE_EQ(r.latency_8B_seconds, 75e-6 / 2);  // per message: two per exchange
  EXPECT_TRUE(r.valid);
  // Without an 8-byte size there is no latency figure.
  RingMeasurement no8 = hand_made_ring();
  no8.sizes.erase(no8.sizes.begin());
  EXPECT_TRUE(std::isnan(ring_result(no8).latency_8B_seconds));
}

TEST(BeffResults, AMethodWithBadPayloadDoesNotCountAndMakesTheSizeInvalid) {
  // The faster nonblocking samples carried a stale message: sendrecv's best counts.
  SizeMeasurement s = size_of(8, 100,
                              {samples(ExchangeMethod::Sendrecv, {0.010, 0.008}),
                               samples(ExchangeMethod::Nonblocking, {0.001}, false)});
  SizeResult r = best_of_size(s, 4);
  EXPECT_EQ(r.best_method, ExchangeMethod::Sendrecv);
  EXPECT_DOUBLE_EQ(r.t_best_seconds, 0.008);
  EXPECT_FALSE(r.valid);
  // No valid method at all: the best of everything, still invalid.
  s.methods[0] = samples(ExchangeMethod::Sendrecv, {0.010}, false);
  r = best_of_size(s, 4);
  EXPECT_DOUBLE_EQ(r.t_best_seconds, 0.001);
  EXPECT_FALSE(r.valid);
  EXPECT_THROW(best_of_size(size_of(8, 1, {}), 4), std::invalid_argument);
}

TEST(BeffResults, SeedsMeasuredTableAveragesTo3_95057e9) {
  // Seed 002, one FPGA: the B/s column's plain mean is the printed b_eff.
  const std::vector<double> b = {1.62150e+06, 3.24313e+06, 6.48621e+06, 1.29722e+07, 2.59453e+07, 5.18907e+07,
                                 1.03781e+08, 2.05794e+08, 4.02737e+08, 7.72389e+08, 1.43097e+09, 2.50444e+09,
                                 3.99620e+09, 7.24052e+09, 8.37438e+09, 9.08229e+09, 9.48329e+09, 9.69693e+09,
                                 9.80814e+09, 9.86474e+09, 9.89317e+09};
  std::vector<SizeResult> sizes;
  for (double x : b) {
    SizeResult s;
    s.b_Bps = x;
    sizes.push_back(s);
  }
  EXPECT_NEAR(beff_mean_Bps(sizes) / 3.95057e9, 1.0, 5e-6);
  EXPECT_TRUE(std::isnan(beff_mean_Bps({})));
}

TEST(BeffResults, HockneyFitRecoversAlphaAndBetaFromExactTimes) {
  // t(L) = 2 us + L / 1 GB/s per exchange; looplength 1000 per sample.
  RingMeasurement m;
  m.ring = natural_ring(2);
  for (std::uint64_t L : {1ull, 8ull, 64ull, 1024ull, 65536ull, 1048576ull}) {
    const double t = 2e-6 + static_cast<double>(L) / 1e9;
    m.sizes.push_back(size_of(L, 1000, {samples(ExchangeMethod::Sendrecv, {1000 * t})}));
  }
  const RingResult r = ring_result(m);
  ASSERT_TRUE(r.hockney.valid) << r.hockney.invalid_reason;
  EXPECT_NEAR(r.hockney.alpha_seconds, 2e-6, 1e-12);
  EXPECT_NEAR(r.hockney.beta_Bps / 1e9, 1.0, 1e-9);
  EXPECT_NEAR(r.hockney.r_squared, 1.0, 1e-9);
  for (const SizeResult& s : r.sizes) {
    // Aggregate model b(L) = n * 2L / t(L); it equals the measured one.
    EXPECT_NEAR(s.model_b_Bps / s.b_Bps, 1.0, 1e-9) << s.message_bytes;
    EXPECT_NEAR(s.residual, 0.0, 1e-9);
  }
  EXPECT_NEAR(r.hockney_b_eff_Bps / r.b_eff_Bps, 1.0, 1e-9);
}

TEST(BeffResults, ScalingEfficiencyOfTheSeedsEightDevices) {
  // Seed 002: 8 FPGAs 3.13237e10 B/s against 8 x 4.07e9 per device: E = 0.962.
  RingResult natural, reference;
  natural.ranks = 8;
  natural.b_eff_Bps = 3.13237e10;
  natural.b_eff_per_rank_Bps = natural.b_eff_Bps / 8;
  reference.ranks = 2;
  reference.kind = RingKind::Reference;
  reference.b_eff_Bps = 2 * 4.07e9;
  reference.b_eff_per_rank_Bps = 4.07e9;
  ScalingResult s = scaling_result(natural, &reference, 0.8, "ranks 0 and 1 (one node)");
  EXPECT_NEAR(s.efficiency, 0.962, 5e-4);
  EXPECT_DOUBLE_EQ(s.reference_per_rank_Bps, 4.07e9);
  EXPECT_TRUE(s.check.passed);
  EXPECT_EQ(s.check.kind, "model");
  EXPECT_EQ(s.check.check, "beff.linear_scaling");
  EXPECT_NE(s.check.subject.find("8 ranks"), std::string::npos) << s.check.subject;
  EXPECT_FALSE(scaling_result(natural, &reference, 0.97, "r").check.passed);
  // Oversubscribed: recorded as a warning, never a failed model check.
  s = scaling_result(natural, &reference, 0.97, "r", "4 ranks on 2 processors of a node");
  EXPECT_FALSE(s.check.passed);
  EXPECT_EQ(s.check.kind, "warning");
  EXPECT_FALSE(s.enforced);
  EXPECT_NE(s.check.subject.find("oversubscribed"), std::string::npos);
}

TEST(BeffResults, WithTwoRanksOrOneTheNaturalRingIsItsOwnReference) {
  RingResult natural;
  natural.ranks = 2;
  natural.b_eff_Bps = 3e9;
  natural.b_eff_per_rank_Bps = 1e9;  // deliberately not b_eff / 2: E must still be exactly 1
  const ScalingResult s = scaling_result(natural, nullptr, 1.0, "the natural ring itself (2 ranks)");
  EXPECT_TRUE(s.reference_is_natural_ring);
  EXPECT_EQ(s.efficiency, 1.0);
  EXPECT_TRUE(s.check.passed);
}

TEST(BeffCalibration, NextLooplengthExtrapolatesWithMarginWithinLimits) {
  EXPECT_EQ(next_looplength(1, 1e-6, 1e-3), 100u);          // x1200 wanted, x100 at most
  EXPECT_EQ(next_looplength(100, 0.5e-3, 1e-3), 240u);      // 1.2 x 2
  EXPECT_EQ(next_looplength(100, 0.0, 1e-3), 10000u);       // timer read 0
  EXPECT_EQ(next_looplength(100, 0.99e-3, 1e-3), 122u);
  EXPECT_EQ(next_looplength(100, 5e-3, 1e-3), 101u);        // at least one more
  EXPECT_EQ(next_looplength(kMaxLooplength - 1, 0.0, 1.0), kMaxLooplength);
}

// ---- tables and report ----

TEST(BeffTables, EverySampleIsARowWithItsBytesAndBandwidth) {
  const RingMeasurement m = hand_made_ring();
  Table results = make_beff_results_table();
  add_result_rows(results, m, "node1");
  ASSERT_EQ(results.rows(), 3u + 2u + 1u + 1u);
  EXPECT_EQ(results.get_int(0, "rank"), -1);
  EXPECT_EQ(results.get_string(0, "host"), "node1");
  EXPECT_EQ(results.get_string(0, "method"), "sendrecv");
  EXPECT_EQ(results.get_int(0, "bytes"), 6400);
  EXPECT_DOUBLE_EQ(results.get_double(0, "t_max"), 0.010);
  EXPECT_DOUBLE_EQ(results.get_double(0, "bandwidth"), 6400 / 0.010);
  EXPECT_LE(results.get_double(0, "t_min"), results.get_double(0, "t_avg"));
  EXPECT_EQ(results.get_int(4, "repetition"), 1);
  EXPECT_EQ(results.get_string(4, "method"), "nonblocking");
  EXPECT_EQ(results.get_int(0, "valid"), 1);

  Table rings = make_beff_rings_table();
  add_ring_rows(rings, m.ring, 12345);
  ASSERT_EQ(rings.rows(), 4u);
  EXPECT_EQ(rings.get_int(3, "rank"), 3);
  EXPECT_EQ(rings.get_int(3, "seed"), 12345);
}

TEST(BeffTables, PayloadFailuresNameRingSizeMethodRankAndProblem) {
  RingMeasurement m = hand_made_ring();
  Table checks = make_checks_table();
  add_payload_checks(checks, m);
  ASSERT_EQ(checks.rows(), 1u);
  EXPECT_EQ(checks.get_int(0, "passed"), 1);
  EXPECT_EQ(checks.get_string(0, "kind"), "validation");

  m.sizes[1].methods[1] = samples(ExchangeMethod::Nonblocking, {0.005}, false);
  m.sizes[1].methods[1].payload.failing_ranks = 2;
  checks = make_checks_table();
  add_payload_checks(checks, m);
  ASSERT_EQ(checks.rows(), 1u);
  EXPECT_EQ(checks.get_int(0, "passed"), 0);
  EXPECT_EQ(checks.get_string(0, "check"), "beff.payload");
  EXPECT_EQ(checks.get_string(0, "subject"),
            "natural ring, 1024 B, nonblocking: rank 2 and 1 more: 1 stale (wrong iteration)");
  Table results = make_beff_results_table();
  add_result_rows(results, m, "h");
  EXPECT_EQ(results.get_int(results.rows() - 1, "valid"), 0);
}

// Seed 002's single-FPGA rows, put into the tables, print as the seed printed them.
TEST(BeffReport, PrintsTheSeedsTableAndBeffLine) {
  const std::vector<std::pair<std::uint64_t, std::pair<double, double>>> seed = {
      {1, {2.02084e-02, 1.62150e+06}}, {2, {2.02076e-02, 3.24313e+06}}, {4096, {3.35864e-02, 3.99620e+09}},
      {2097152, {6.94615e+00, 9.89317e+09}}};
  RingResult natural;
  natural.ranks = 1;
  for (const auto& [L, tb] : seed) {
    SizeResult s;
    s.message_bytes = L;
    s.looplength = 16384;
    s.t_best_seconds = tb.first;
    s.b_Bps = tb.second;
    s.valid = true;
    natural.sizes.push_back(s);
  }
  natural.b_eff_Bps = 3.95057e9;
  natural.b_eff_per_rank_Bps = 3.95057e9;
  natural.latency_8B_seconds = 2.5e-6;
  natural.valid = true;
  Table sizes = make_beff_sizes_table(), summary = make_beff_summary_table();
  add_size_rows(sizes, natural);
  SummaryExtras extras;
  extras.seed = 12345;
  extras.reference = "the natural ring itself (1 rank)";
  extras.reference_per_rank_Bps = 3.95057e9;
  extras.efficiency = 1;
  extras.min_efficiency = 0.8;
  extras.scaling_passed = 1;
  extras.scaling_enforced = true;
  add_summary_row(summary, natural, extras);

  const auto lines = make_beff_report()->summary_lines({sizes, summary});
  auto has = [&](const std::string& text) { return std::find(lines.begin(), lines.end(), text) != lines.end(); };
  auto has_part = [&](const std::string& text) {
    return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(text) != std::string::npos; });
  };
  std::string all;
  for (const auto& l : lines) all += l + "\n";
  EXPECT_TRUE(has("    MSize      looplength        transfer             B/s")) << all;
  EXPECT_TRUE(has("        1           16384     2.02084e-02     1.62150e+06")) << all;
  EXPECT_TRUE(has("     4096           16384     3.35864e-02     3.99620e+09")) << all;
  EXPECT_TRUE(has("  2097152           16384     6.94615e+00     9.89317e+09")) << all;
  EXPECT_TRUE(has("b_eff = 3.95057e+09 B/s")) << all;
  EXPECT_TRUE(has_part("b_eff per rank = 3.95057e+09 B/s; latency (8 B, per message) = 2.50 us")) << all;
  EXPECT_TRUE(has_part("E(1) = 1.000 (min 0.80): passed")) << all;
  EXPECT_FALSE(has_part("INVALID")) << all;
  EXPECT_TRUE(make_beff_report()->summary_lines({}).empty());
}

}  // namespace
}  // namespace bws::beff

namespace bws::beff {
namespace {

// ---- seed 002's channel model as the run's check (--beff.model) ----

// Seed 002's two measurement tables: MSize and transfer (seconds for
// looplength = 16384 exchanges), in table order, as printed.
constexpr std::uint64_t kSeedSizes[21] = {1,     2,     4,      8,      16,     32,      64,
                                          128,   256,   512,    1024,   2048,   4096,    16384,
                                          32768, 65536, 131072, 262144, 524288, 1048576, 2097152};
constexpr double kSeedOneDevice[21] = {
    2.02084e-02, 2.02076e-02, 2.02078e-02, 2.02082e-02, 2.02075e-02, 2.02074e-02, 2.02074e-02,
    2.03811e-02, 2.08290e-02, 2.17212e-02, 2.34488e-02, 2.67959e-02, 3.35864e-02, 7.41481e-02,
    1.28218e-01, 2.36447e-01, 4.52898e-01, 8.85840e-01, 1.75159e+00, 3.48309e+00, 6.94615e+00};
constexpr double kSeedEightDevices[21] = {
    2.16071e-02, 2.16078e-02, 2.16072e-02, 2.16072e-02, 2.16080e-02, 2.16077e-02, 2.16064e-02,
    2.17348e-02, 2.21099e-02, 2.29710e-02, 2.46347e-02, 2.80785e-02, 3.47917e-02, 7.54236e-02,
    1.29557e-01, 2.37797e-01, 4.54291e-01, 8.87293e-01, 1.75325e+00, 3.48511e+00, 6.94855e+00};

// The seed's rows as this run measures a ring: one sample per size, its
// time the slowest rank's.
RingResult seed_ring(int ranks, const double (&transfer)[21]) {
  RingMeasurement m;
  m.ring = natural_ring(ranks);
  for (int i = 0; i < 21; ++i)
    m.sizes.push_back(size_of(kSeedSizes[i], 16384, {samples(ExchangeMethod::Sendrecv, {transfer[i]})}));
  return ring_result(m);
}

TEST(BeffChannelModel, TheSeedsRowsGiveItsBeffAndPassTheCorrectedModel) {
  const auto model = parse_channel_model("520n");
  ASSERT_TRUE(model.has_value());

  const RingResult one = seed_ring(1, kSeedOneDevice);
  EXPECT_NEAR(one.b_eff_Bps, 3.95057e9, 3.95057e9 * 1e-5);  // the seed's "b_eff = 3.95057e+09 B/s"
  const ChannelModelCheck c1 = channel_model_check(one, *model, "520n");
  EXPECT_NEAR(c1.expected_b_eff_Bps, 4.0696e9, 4.0696e9 * 2e-5);  // anchors: the corrected model, table sizes
  EXPECT_NEAR(c1.ratio, 3.95057e9 / 4.0696e9, 1e-4);              // 0.9708: 2.9 % under
  EXPECT_TRUE(c1.check.passed);
  EXPECT_EQ(c1.check.check, "beff.model");
  EXPECT_EQ(c1.check.kind, "model");
  EXPECT_DOUBLE_EQ(c1.check.measured, c1.ratio);

  const RingResult eight = seed_ring(8, kSeedEightDevices);
  EXPECT_NEAR(eight.b_eff_Bps, 3.13237e10, 3.13237e10 * 1e-5);  // "b_eff = 3.13237e+10 B/s"
  const ChannelModelCheck c8 = channel_model_check(eight, *model, "520n");
  EXPECT_NEAR(c8.expected_b_eff_Bps, 3.2557e10, 3.2557e10 * 2e-5);  // 8 x 4.0696e9
  EXPECT_TRUE(c8.check.passed);

  // Against the ideal first model (8.1392e9 on one device) the seed's link is 51 % short: fails.
  const ChannelModelCheck ideal = channel_model_check(one, *parse_channel_model("520n-ideal"), "520n-ideal");
  EXPECT_NEAR(ideal.expected_b_eff_Bps, 8.1392e9, 8.1392e9 * 2e-5);
  EXPECT_FALSE(ideal.check.passed);
  // A model twice as slow as the link: the link is above it, fails too.
  const auto slow = parse_channel_model("2,16,156.25e6,1040e-9,2");
  ASSERT_TRUE(slow.has_value());
  EXPECT_FALSE(channel_model_check(one, *slow, "x").check.passed);
}

TEST(BeffChannelModel, TheOptionParsesPresetsAndNumbersAndRefusesTheRest) {
  EXPECT_FALSE(parse_channel_model("off").has_value());
  EXPECT_FALSE(parse_channel_model("").has_value());
  const auto p = parse_channel_model(" 2, 32, 156.25e6, 520e-9 ");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->channels, 2u);
  EXPECT_EQ(p->channel_width_bytes, 32u);
  EXPECT_DOUBLE_EQ(p->frequency_Hz, 156.25e6);
  EXPECT_DOUBLE_EQ(p->latency_seconds, 520e-9);
  EXPECT_DOUBLE_EQ(p->sequential_factor, 1);
  for (const char* bad : {"fast", "2,32,156e6", "0,32,1e8,0", "2,32,0,0", "2,32,1e8,-1", "2,32,1e8,0,0", "2,x,1e8,0",
                          "2,32,1e400,0", "1,2,3,4,5,6"}) {
    const std::string message = usage_error_of([&] { parse_channel_model(bad); });
    EXPECT_NE(message.find("--beff.model"), std::string::npos) << bad << ": " << message;
    EXPECT_NE(message.find("allowed"), std::string::npos) << bad << ": " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << bad;
  }
  // Planned from the option, off by default.
  EXPECT_FALSE(plan_with({}).channel_model.has_value());
  EXPECT_TRUE(plan_with({{kModelOption, "520n"}}).channel_model.has_value());
}

}  // namespace
}  // namespace bws::beff
