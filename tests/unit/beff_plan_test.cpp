// b_eff (lib/beff): ring construction, options and every bad input.
#include <gtest/gtest.h>

#include <boost/program_options/options_description.hpp>

#include "run/TestHooks.hpp"
#include <stdlib.h>

#include "BeffTestSupport.hpp"
#include "TestSupport.hpp"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "beff/BeffBenchmark.hpp"
#include "beff/BeffPlan.hpp"
#include "beff/BeffRings.hpp"
#include "core/Config.hpp"
#include "core/Errors.hpp"

namespace bws::beff {
namespace {

using bws::test::usage_error_of;

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
  config.set("beff.min-time", "0.05");
  EXPECT_DOUBLE_EQ(plan_beff(config, layout_with(64 * kGiB, 1, true)).min_time_seconds, 0.05);
}

TEST(BeffPlan, MaxBytesSetsTheGrowthSoTheLastSizeIsIt) {
  const BeffParams p = plan_with({{"beff.max-bytes", "16M"}});
  ASSERT_EQ(p.sizes_bytes.size(), 21u);
  EXPECT_EQ(p.sizes_bytes[12], 4096u);
  EXPECT_EQ(p.sizes_bytes.back(), 16 * kMiB);
  // a = (16M/4K)^(1/8) = 2^1.5: 4096 * 2^1.5 = 11585.2 -> 11585
  EXPECT_EQ(p.sizes_bytes[13], 11585u);
  EXPECT_TRUE(std::is_sorted(p.sizes_bytes.begin(), p.sizes_bytes.end()));
}

TEST(BeffPlan, AnExplicitSizeListIsSortedAndUsedAsGiven) {
  const BeffParams p = plan_with({{"beff.sizes", " 64K, 8,1K "}});
  EXPECT_TRUE(p.sizes_explicit);
  EXPECT_EQ(p.sizes_bytes, (std::vector<std::uint64_t>{8, 1024, 65536}));
  EXPECT_EQ(plan_with({{"beff.sizes", "100"}}).sizes_bytes, (std::vector<std::uint64_t>{100}));
  // The stored /config names every option: max-bytes at its default value is no conflict.
  EXPECT_EQ(plan_with({{"beff.sizes", "8"}, {"beff.max-bytes", "1M"}}).sizes_bytes.size(), 1u);
}

TEST(BeffPlan, SeedsMethodsAndTheOtherNumbers) {
  const BeffParams p = plan_with({{"beff.seed", "42"},
                                  {"beff.methods", "nonblocking"},
                                  {"beff.reps", "3"},
                                  {"beff.random-rings", "0"},
                                  {"beff.min-time", "2.5e-3"},
                                  {"beff.min-efficiency", "1"}});
  EXPECT_EQ(p.seed, 42u);
  EXPECT_EQ(p.methods, std::vector<ExchangeMethod>{ExchangeMethod::Nonblocking});
  EXPECT_EQ(p.reps, 3);
  EXPECT_EQ(p.random_rings, 0);
  EXPECT_DOUBLE_EQ(p.min_time_seconds, 2.5e-3);
  EXPECT_DOUBLE_EQ(p.min_efficiency, 1.0);
  EXPECT_TRUE(plan_with({{"beff.seed", "auto"}}).seed_auto);
  EXPECT_LE(plan_with({{"beff.seed", "AUTO"}}).seed, (std::uint64_t{1} << 63) - 1);
  EXPECT_EQ(plan_with({{"beff.methods", "sendrecv, sendrecv"}}).methods.size(), 1u);
}

TEST(BeffPlan, MemoryLimitsTheLargestMessage) {
  // 1 GiB node, 4 ranks: 4 buffers each within 40% -> 0.4 GiB / 16 = 26843545 bytes.
  const RankLayout small = layout_with(kGiB, 4);
  EXPECT_EQ(plan_with({}, small).message_limit_bytes, 26843545u);
  EXPECT_EQ(plan_with({{"beff.sizes", "26843545"}}, small).sizes_bytes.back(), 26843545u);
  const std::string big = plan_error({{"beff.sizes", "8,26843546"}}, small);
  EXPECT_NE(big.find("--beff.sizes"), std::string::npos) << big;
  EXPECT_NE(big.find("above what memory allows"), std::string::npos) << big;
  EXPECT_NE(big.find("allowed: 1..26843545"), std::string::npos) << big;
  const std::string max = plan_error({{"beff.max-bytes", "32M"}}, small);
  EXPECT_NE(max.find("--beff.max-bytes"), std::string::npos) << max;
  EXPECT_NE(max.find("allowed: 4104..26843545"), std::string::npos) << max;
  // MPI counts bytes in an int, whatever the memory.
  EXPECT_NE(plan_error({{"beff.sizes", "2G"}}, layout_with(1024 * kGiB, 1)).find("2147483647"), std::string::npos);
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
      {"beff.sizes", "0", "must be positive"},
      {"beff.sizes", "8,0", "must be positive"},
      {"beff.sizes", "-8", "is negative"},
      {"beff.sizes", ",", "empty size list"},
      {"beff.sizes", " , ", "empty size list"},
      {"beff.sizes", "1K,,2K", "empty entry"},
      {"beff.sizes", "1K,1024", "given twice"},
      {"beff.sizes", "abc", "is not a size"},
      {"beff.sizes", "64T", "allowed: 1.."},
      {"beff.max-bytes", "4096", "allowed: 4104.."},  // a = 1
      {"beff.max-bytes", "4K", "allowed: 4104.."},
      {"beff.max-bytes", "100", "allowed: 4104.."},
      {"beff.max-bytes", "4100", "allowed: 4104.."},  // a too close to 1
      {"beff.max-bytes", "0", "allowed: 4104.."},
      {"beff.methods", "bogus", "unknown method 'bogus'"},
      {"beff.methods", "sendrecv,isend", "unknown method 'isend'"},
      {"beff.methods", "", "empty entry"},
      {"beff.huge-pages", "maybe", "allowed: on, off"},
      {"beff.reps", "0", "allowed: 1..100000"},
      {"beff.reps", "-3", "allowed: 1..100000"},
      {"beff.reps", "100001", "allowed: 1..100000"},
      {"beff.reps", "ten", "allowed: 1..100000"},
      {"beff.min-time", "0", "allowed: > 0 and <= 60"},
      {"beff.min-time", "-0.01", "allowed: > 0 and <= 60"},
      {"beff.min-time", "61", "allowed: > 0 and <= 60"},
      {"beff.min-time", "10ms", "allowed: > 0 and <= 60"},
      {"beff.min-time", "nan", "allowed: > 0 and <= 60"},
      {"beff.random-rings", "1001", "allowed: 0..1000"},
      {"beff.random-rings", "-1", "allowed: 0..1000"},
      {"beff.seed", "-1", "or auto"},
      {"beff.seed", "x", "or auto"},
      {"beff.seed", "9223372036854775808", "or auto"},
      {"beff.min-efficiency", "0", "allowed: > 0 and <= 1"},
      {"beff.min-efficiency", "1.5", "allowed: > 0 and <= 1"},
      {"beff.min-efficiency", "-0.5", "allowed: > 0 and <= 1"},
  };
  for (const Case& c : cases) {
    const std::string message = plan_error({{c.key, c.value}});
    EXPECT_NE(message.find(std::string("--") + c.key), std::string::npos) << c.key << "=" << c.value << ": " << message;
    EXPECT_NE(message.find(c.needle), std::string::npos) << c.key << "=" << c.value << ": " << message;
  }
  const std::string both = plan_error({{"beff.sizes", "8"}, {"beff.max-bytes", "2M"}});
  EXPECT_NE(both.find("--beff.max-bytes and --beff.sizes both given"), std::string::npos) << both;
}

TEST(BeffPlan, TheCorruptionHookIsReadFromTheEnvironment) {
  if (!bws::run::test_hooks_compiled()) {
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
  for (const char* key : {"beff.max-bytes", "beff.sizes", "beff.random-rings", "beff.seed", "beff.min-time",
                          "beff.reps", "beff.methods", "beff.min-efficiency", "beff.model", "beff.path"})
    EXPECT_NE(desc.find_nothrow(key, false), nullptr) << key;
}


}  // namespace
}  // namespace bws::beff
