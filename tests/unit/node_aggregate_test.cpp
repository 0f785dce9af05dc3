// core/NodeAggregate: a node's times and rates from its ranks' samples,
// worked out by hand, including its one rule for missing samples; and the
// Team's one timed window (topology/TimedWindow.hpp).
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "LocalTeam.hpp"
#include "core/NodeAggregate.hpp"
#include "topology/TimedWindow.hpp"

namespace bws {
namespace {

const double kNaN = std::nan("");

TEST(NodeAggregate, SlowestRankPerRepetitionAndSummedWork) {
  NodeAggregate node(1);  // the first repetition is a warm-up
  node.add({1.0, 0.5, 0.25}, {0.25, kNaN, 0.375, 0.5}, 100);
  node.add({0.9, 0.3, 0.4}, {0.3, kNaN, 0.35, 0.4}, 100);
  EXPECT_TRUE(node.from_samples());
  EXPECT_EQ(node.ranks(), 2);
  EXPECT_EQ(node.work(), 200);
  EXPECT_EQ(node.slowest_seconds(), (std::vector<double>{1.0, 0.5, 0.4}));
  const TimeStats t = node.times();
  EXPECT_EQ(t.min_seconds, 0.4);  // max(0.25, 0.4): not the best rank's 0.25
  EXPECT_EQ(t.max_seconds, 0.5);
  EXPECT_DOUBLE_EQ(t.avg_seconds, 0.45);
  EXPECT_DOUBLE_EQ(node.rate(), 200 / 0.4);
  // Per repetition the ranks' rates summed: 100/0.5 + 100/0.3, then 100/0.25 + 100/0.4 = 650.
  EXPECT_DOUBLE_EQ(node.best_summed_rate(), 650);
}

TEST(NodeAggregate, OnlyTheRepetitionsEveryRankHasCount) {
  NodeAggregate node(1);
  node.add({1.0, 0.5, 0.25, 0.1}, {0.1, kNaN, 0.3, 0.5}, 10);  // one repetition more than the other rank
  node.add({1.0, 0.5, 0.3}, {0.3, kNaN, 0.4, 0.5}, 10);
  EXPECT_EQ(node.slowest_seconds(), (std::vector<double>{1.0, 0.5, 0.3}));
  EXPECT_EQ(node.times().min_seconds, 0.3);  // the 0.1 of a repetition the other rank lacks is not the node's
  EXPECT_DOUBLE_EQ(node.rate(), 20 / 0.3);
}

TEST(NodeAggregate, ARankWithoutSamplesGivesTheSlowestRanksOwnStatistics) {
  // Rank 1's row was stored without samples (or with only its warm-up):
  // no per-repetition times; each statistic is the largest of the ranks' own.
  for (bool samples_first : {true, false}) {
    NodeAggregate node(1);
    const auto with = [&] { node.add({1.0, 0.5}, {0.5, kNaN, 0.5, 0.5}, 100); };
    const auto without = [&] { node.add({2.0}, {0.6, kNaN, 0.7, 0.8}, 50); };
    if (samples_first) with(), without();
    else without(), with();
    EXPECT_FALSE(node.from_samples());
    EXPECT_TRUE(node.slowest_seconds().empty());
    const TimeStats t = node.times();
    EXPECT_EQ(t.min_seconds, 0.6);
    EXPECT_EQ(t.avg_seconds, 0.7);
    EXPECT_EQ(t.max_seconds, 0.8);
    EXPECT_TRUE(std::isnan(t.median_seconds));
    EXPECT_DOUBLE_EQ(node.rate(), 150 / 0.6);
    EXPECT_DOUBLE_EQ(node.best_summed_rate(), 100 / 0.5 + 50 / 0.6);  // the ranks' own best rates
  }
}

TEST(NodeAggregate, NoWarmupAndRowsOfATable) {
  Table t("x/results", {real_column("t_min", "s"), real_column("t_avg", "s"), real_column("t_max", "s"),
                        int_column("bytes", "B")},
          "x/times");
  t.add_row({{"t_min", 0.2}, {"t_avg", 0.3}, {"t_max", 0.4}, {"bytes", 8}}, {0.4, 0.2, 0.3});
  t.add_row({{"t_min", 0.25}, {"t_avg", 0.25}, {"t_max", 0.25}, {"bytes", 8}}, {0.25, 0.25, 0.25});
  NodeAggregate node;  // every stored sample counts
  node.add_row(t, 0, "bytes");
  node.add_row(t, 1, "bytes");
  EXPECT_EQ(node.slowest_seconds(), (std::vector<double>{0.4, 0.25, 0.3}));
  EXPECT_EQ(node.times().min_seconds, 0.25);
  EXPECT_EQ(node.times().median_seconds, 0.3);
  EXPECT_DOUBLE_EQ(node.rate(), 16 / 0.25);
}

TEST(TimedWindow, EveryThreadWorksInsideAndThreadZeroCombinesBeforeTheClock) {
  test::LocalTeam local;
  std::vector<int> ran(static_cast<std::size_t>(local.team.size()), 0);
  int combined = 0;
  const double seconds = topo::timed_team_run(
      local.team, [&](topo::ThreadContext& thread) { ran[static_cast<std::size_t>(thread.index())] += 1; },
      [&] {
        for (int r : ran) combined += r;  // after the closing barrier: every thread's work is there
      });
  EXPECT_GE(seconds, 0.0);
  EXPECT_EQ(combined, local.team.size());
}

}  // namespace
}  // namespace bws
