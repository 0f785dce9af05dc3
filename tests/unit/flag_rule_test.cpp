// lib/model/FlagRule: the slow-node rule of one cohort, on inputs whose
// verdicts are worked out by hand in the comments (never by the code under
// test). bench/flag-rule.sh measures the same rule statistically.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <vector>

#include "model/FlagRule.hpp"

using namespace bws::model;

namespace {

constexpr bool kHigherIsBetter = true;
constexpr bool kLowerIsBetter = false;

std::vector<std::size_t> flagged_indices(const std::vector<CohortVerdict>& verdicts) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < verdicts.size(); ++i)
    if (verdicts[i].flagged()) out.push_back(i);
  return out;
}

}  // namespace

TEST(FlagRule, DefaultsAreTheDocumentedOnes) {
  EXPECT_DOUBLE_EQ(FlagRule{}.k, 3.5);
  EXPECT_DOUBLE_EQ(FlagRule{}.fraction, 0.75);
  EXPECT_STREQ(to_string(FlagRuleHit::None), "");
  EXPECT_STREQ(to_string(FlagRuleHit::Deficit), "fraction");
  EXPECT_STREQ(to_string(FlagRuleHit::Spread), "spread");
}

TEST(FlagRule, SpreadRuleKByHand) {
  // k_n = max(k - 3.2/sqrt(n), k/2), k = 3.5:
  //   n = 8:    3.2/2.8284271247 = 1.1313708499 -> 2.3686291501
  //   n = 32:   3.2/5.6568542495 = 0.5656854249 -> 2.9343145751
  //   n = 1000: 3.2/31.6227766017 = 0.1011928851 -> 3.3988071149
  //   n = 2:    3.2/1.4142135624 = 2.2627 -> 1.237, below k/2 = 1.75 -> 1.75
  EXPECT_NEAR(spread_rule_k(3.5, 8), 2.3686291501, 1e-9);
  EXPECT_NEAR(spread_rule_k(3.5, 32), 2.9343145751, 1e-9);
  EXPECT_NEAR(spread_rule_k(3.5, 1000), 3.3988071149, 1e-9);
  EXPECT_NEAR(spread_rule_k(3.5, 2), 1.75, 1e-12);
  EXPECT_NEAR(spread_rule_k(5.0, 8), 3.8686291501, 1e-9);  // another k: 5 - 1.1314
}

TEST(FlagRule, NoisyCohortOfFourFlagsTheNodeAtAFifth) {
  // The failure: the old rule left 4.6 unflagged (4 noisy nodes
  // make the MAD useless). Peers of 4.6: {19, 24, 29}, median 24; 0.75 * 24
  // = 18 > 4.6: flagged by "fraction". Peers of 19: {24, 29, 4.6}, median
  // 24, limit 18 < 19; of 24: {19, 29, 4.6}, median 19, limit 14.25; of 29:
  // {19, 24, 4.6}, median 19: none of the three is flagged. n = 4 < 8: no
  // spread rule.
  const std::vector<double> gbs = {19, 24, 29, 4.6};
  const auto v = judge_cohort(gbs, kHigherIsBetter, FlagRule{});
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(flagged_indices(v), std::vector<std::size_t>({3}));
  EXPECT_EQ(v[3].hit, FlagRuleHit::Deficit);
  EXPECT_STREQ(to_string(v[3].hit), "fraction");
  EXPECT_DOUBLE_EQ(v[3].peer_median, 24);
  EXPECT_DOUBLE_EQ(v[3].limit, 18);
  EXPECT_DOUBLE_EQ(v[3].k_used, 0);
  EXPECT_DOUBLE_EQ(v[0].peer_median, 24);
  EXPECT_DOUBLE_EQ(v[1].peer_median, 19);
  EXPECT_DOUBLE_EQ(v[2].peer_median, 19);
  EXPECT_DOUBLE_EQ(v[1].limit, 14.25);
  EXPECT_LT(v[3].robust_z, 0);
}

TEST(FlagRule, CohortOfThreeFlagsTheNodeAtHalf) {
  // Peers of 5: {10, 10.2}, median 10.1, limit 0.75 * 10.1 = 7.575 > 5.
  // Peers of 10: {10.2, 5}, median 7.6, limit 5.7 < 10; of 10.2: {10, 5},
  // median 7.5, limit 5.625: not flagged.
  const std::vector<double> gbs = {10, 10.2, 5};
  const auto v = judge_cohort(gbs, kHigherIsBetter, FlagRule{});
  EXPECT_EQ(flagged_indices(v), std::vector<std::size_t>({2}));
  EXPECT_EQ(v[2].hit, FlagRuleHit::Deficit);
  EXPECT_NEAR(v[2].peer_median, 10.1, 1e-12);
  EXPECT_NEAR(v[2].limit, 7.575, 1e-12);
  EXPECT_NEAR(v[0].peer_median, 7.6, 1e-12);
  EXPECT_NEAR(v[1].peer_median, 7.5, 1e-12);
}

TEST(FlagRule, CohortOfTwoOrFewerFlagsNothing) {
  // Below 3 nodes no rule applies; each verdict's peer median is the other node.
  const std::vector<double> two = {10, 2};
  const auto v = judge_cohort(two, kHigherIsBetter, FlagRule{});
  ASSERT_EQ(v.size(), 2u);
  EXPECT_TRUE(flagged_indices(v).empty());
  EXPECT_DOUBLE_EQ(v[0].peer_median, 2);
  EXPECT_DOUBLE_EQ(v[1].peer_median, 10);
  const std::vector<double> one = {7};
  const auto w = judge_cohort(one, kHigherIsBetter, FlagRule{});
  ASSERT_EQ(w.size(), 1u);
  EXPECT_FALSE(w[0].flagged());
  EXPECT_TRUE(judge_cohort(std::vector<double>{}, kHigherIsBetter, FlagRule{}).empty());
}

TEST(FlagRule, EightNodesFlagANodeAtEightyPercentBySpread) {
  // Seven nodes at 10.0, one at 8.0. MAD: |v - 10| = {0 x7, 2}, median 0:
  // sigma = the floor, 1 % of the peers' median 10 = 0.1. k_8 = 3.5 -
  // 3.2/sqrt(8) = 2.36863. Limit = min(10 - 0.236863, 0.95 * 10) = 9.5.
  // 8.0 is not below 0.75 * 10 = 7.5 (no "fraction"), but below 9.5:
  // "spread". The others' peers are {10 x6, 8}, median 10: not flagged.
  std::vector<double> gbs(7, 10.0);
  gbs.push_back(8.0);
  const auto v = judge_cohort(gbs, kHigherIsBetter, FlagRule{});
  EXPECT_EQ(flagged_indices(v), std::vector<std::size_t>({7}));
  EXPECT_EQ(v[7].hit, FlagRuleHit::Spread);
  EXPECT_DOUBLE_EQ(v[7].peer_median, 10);
  EXPECT_NEAR(v[7].sigma, 0.1, 1e-12);
  EXPECT_NEAR(v[7].k_used, 2.3686291501, 1e-9);
  EXPECT_NEAR(v[7].limit, 9.5, 1e-12);
  EXPECT_NEAR(v[7].robust_z, -20, 1e-9);  // (8 - 10) / 0.1
  EXPECT_DOUBLE_EQ(v[0].peer_median, 10);
}

TEST(FlagRule, SpreadRuleNeverFlagsWithinFivePercent) {
  // Nine nodes at 10.0 and one at 9.6 (96 %). sigma = floor 0.1, k_10 =
  // 3.5 - 3.2/sqrt(10) = 3.5 - 1.011929 = 2.488071, so m - k*sigma =
  // 9.751193: 9.6 is 4 sigma down. But the limit is min(9.751193, 9.5) =
  // 9.5, and 9.6 > 9.5: not flagged. At 9.4 (94 %) it is.
  std::vector<double> gbs(9, 10.0);
  gbs.push_back(9.6);
  const auto v = judge_cohort(gbs, kHigherIsBetter, FlagRule{});
  EXPECT_TRUE(flagged_indices(v).empty());
  EXPECT_NEAR(v[9].limit, 9.5, 1e-12);
  EXPECT_NEAR(v[9].robust_z, -4, 1e-9);
  gbs[9] = 9.4;
  const auto w = judge_cohort(gbs, kHigherIsBetter, FlagRule{});
  EXPECT_EQ(flagged_indices(w), std::vector<std::size_t>({9}));
  EXPECT_EQ(w[9].hit, FlagRuleHit::Spread);
}

TEST(FlagRule, TimesAreJudgedAsRates) {
  // Latencies 100, 101, 99, 300 ns. As rates (1/ns) the peers of 300 are
  // 1/100, 1/101, 1/99, median 1/100; 0.75 * 1/100 = 1/133.33 and 1/300 is
  // below it: flagged by "fraction", limit 1 / (0.75 / 100) = 133.33 ns,
  // peer median 100 ns. Peers of 100 ns: rates 1/101, 1/99, 1/300, median
  // 1/101; limit 134.67 ns > 100: not flagged (nor 101 or 99).
  const std::vector<double> ns = {100, 101, 99, 300};
  const auto v = judge_cohort(ns, kLowerIsBetter, FlagRule{});
  EXPECT_EQ(flagged_indices(v), std::vector<std::size_t>({3}));
  EXPECT_EQ(v[3].hit, FlagRuleHit::Deficit);
  EXPECT_NEAR(v[3].peer_median, 100, 1e-9);
  EXPECT_NEAR(v[3].limit, 400.0 / 3, 1e-9);
  EXPECT_NEAR(v[0].peer_median, 101, 1e-9);
  EXPECT_NEAR(v[0].limit, 101 / 0.75, 1e-9);
  // The fast node (a short time) is never flagged: 30 ns among 100s.
  const std::vector<double> fast = {100, 101, 99, 30};
  EXPECT_TRUE(flagged_indices(judge_cohort(fast, kLowerIsBetter, FlagRule{})).empty());
}

TEST(FlagRule, FractionOptionMovesTheDeficitLimit) {
  // {10, 10.2, 5} with fraction 0.45: limit 0.45 * 10.1 = 4.545 < 5: not flagged.
  const std::vector<double> gbs = {10, 10.2, 5};
  const auto v = judge_cohort(gbs, kHigherIsBetter, FlagRule{3.5, 0.45});
  EXPECT_TRUE(flagged_indices(v).empty());
  EXPECT_NEAR(v[2].limit, 4.545, 1e-12);
}

TEST(FlagRule, TenThousandNodesWithOneAtHalf) {
  // 9,999 nodes at 10 + 0.01 * ((i % 7) - 3), i.e. 9.97 .. 10.03, and one
  // at 5. Peers' median 10; MAD at most 0.03, so sigma = the floor 0.1 and
  // the limit is min(10 - 3.47 * 0.1, 9.5) = 9.5: only the node at 5 is
  // flagged, by "fraction" (5 < 7.5). Fast: judge_cohort sorts once.
  std::vector<double> gbs(10000);
  for (std::size_t i = 0; i < gbs.size(); ++i) gbs[i] = 10 + 0.01 * (static_cast<double>(i % 7) - 3);
  gbs[4321] = 5;
  const auto v = judge_cohort(gbs, kHigherIsBetter, FlagRule{});
  ASSERT_EQ(v.size(), gbs.size());
  EXPECT_EQ(flagged_indices(v), std::vector<std::size_t>({4321}));
  EXPECT_EQ(v[4321].hit, FlagRuleHit::Deficit);
  EXPECT_NEAR(v[4321].peer_median, 10, 1e-12);
  EXPECT_NEAR(v[4321].limit, 9.5, 1e-12);
}

TEST(FlagRule, EachRulesOwnLimitByHand) {
  // {100, 110, 90, 100, 120, 80, 100, 50}, n = 8. Cohort median: sorted
  // 50 80 90 100 100 100 110 120 -> 100; |x - 100| sorted 0 0 0 10 10 20
  // 20 50 -> MAD 10, sigma = 1.4826 x 10 = 14.826 (above 1 % of 100).
  // The node at 50: peers 80 90 100 100 100 110 120, median 100;
  //   fraction limit 0.75 x 100 = 75;
  //   spread limit min(100 - 2.3686291501 x 14.826, 95) = 64.8827;
  //   limit: the stricter (larger) of the two, 75.
  // The node at 120: peers 50 80 90 100 100 100 110, median 100: the same.
  const std::vector<double> gbs = {100, 110, 90, 100, 120, 80, 100, 50};
  const auto v = judge_cohort(gbs, kHigherIsBetter, FlagRule{});
  ASSERT_EQ(v.size(), 8u);
  const double spread = 100 - 2.3686291501 * 14.826;
  for (std::size_t i : {std::size_t{4}, std::size_t{7}}) {
    EXPECT_NEAR(v[i].fraction_limit, 75, 1e-9) << i;
    EXPECT_NEAR(v[i].spread_limit, spread, 1e-6) << i;
    EXPECT_NEAR(v[i].limit, 75, 1e-9) << i;
  }
  EXPECT_EQ(v[7].hit, FlagRuleHit::Deficit);
}

TEST(FlagRule, RuleLimitsOfTimesAreTimesAndAbsentBelowTheirCohortSize) {
  // Times {1, 1, 1, 2} s, n = 4: rates {1, 1, 1, 0.5}. The 2 s node's
  // peers' rate median 1: fraction limit 0.75 /s, as a time 1/0.75 =
  // 1.3333 s. n < 8: no spread limit (NaN).
  const std::vector<double> seconds = {1, 1, 1, 2};
  const auto v = judge_cohort(seconds, kLowerIsBetter, FlagRule{});
  ASSERT_EQ(v.size(), 4u);
  EXPECT_NEAR(v[3].fraction_limit, 1 / 0.75, 1e-12);
  EXPECT_TRUE(std::isnan(v[3].spread_limit));
  EXPECT_NEAR(v[3].limit, 1 / 0.75, 1e-12);
  // n = 2: neither rule applies.
  const std::vector<double> two = {1, 2};
  const auto w = judge_cohort(two, kHigherIsBetter, FlagRule{});
  EXPECT_TRUE(std::isnan(w[0].fraction_limit));
  EXPECT_TRUE(std::isnan(w[1].spread_limit));
}
