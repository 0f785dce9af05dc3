// lib/model: the robust statistics, the node metrics read from Tables, the
// slow-node flags and their options, on inputs whose answers are known.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "TestSupport.hpp"
#include "catalog/FlagOptions.hpp"
#include "catalog/Registry.hpp"
#include "core/Config.hpp"
#include "core/ResultColumns.hpp"
#include "model/NodeFlags.hpp"
#include "model/RobustStats.hpp"

using namespace bws;
using namespace bws::model;

namespace {

const NodeMetric kTriad{"stream.triad", "stream/nodes", "bandwidth", "B/s", {{"kernel", "Triad"}}, {"type"}};

Table stream_nodes(const std::vector<std::pair<std::string, double>>& triads, const std::string& type = "double") {
  Table t("stream/nodes", {text_column("host", 32), text_column("kernel", 16), text_column("type", 8),
                           real_column("bandwidth", "B/s")});
  for (const auto& [host, Bps] : triads) {
    t.add_row({{"host", host}, {"kernel", "Copy"}, {"type", type}, {"bandwidth", 2 * Bps}});
    t.add_row({{"host", host}, {"kernel", "Triad"}, {"type", type}, {"bandwidth", Bps}});
  }
  return t;
}

}  // namespace

TEST(RobustStats, MedianAndMadOfKnownValues) {
  const std::vector<double> odd = {4, 1, 100, 3, 2};
  EXPECT_DOUBLE_EQ(median_of(odd), 3);
  EXPECT_DOUBLE_EQ(median_absolute_deviation(odd), 1);  // |v-3| = 1,2,97,0,1
  const std::vector<double> even = {4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(median_of(even), 2.5);
  EXPECT_DOUBLE_EQ(median_absolute_deviation(even), 1);  // 1.5, 1.5, 0.5, 0.5
  EXPECT_TRUE(std::isnan(median_of(std::vector<double>{})));
  EXPECT_DOUBLE_EQ(robust_z(100, 3, 1), 97 / 1.4826);
  EXPECT_EQ(robust_z(2, 3, 0), -INFINITY);
  EXPECT_EQ(robust_z(3, 3, 0), 0);
}

TEST(NodeMetrics, RowsAreSelectedGroupedAndAggregatedPerHost) {
  const std::vector<Table> tables = {stream_nodes({{"a", 10}, {"b", 20}}), stream_nodes({{"a", 5}}, "float")};
  const auto values = node_metric_values(kTriad, tables);
  ASSERT_EQ(values.size(), 3u);
  EXPECT_EQ(values[0].metric, "stream.triad[double]");
  EXPECT_EQ(values[0].host, "a");
  EXPECT_DOUBLE_EQ(values[0].value, 10);  // the Triad row, not Copy
  EXPECT_EQ(values[2].metric, "stream.triad[float]");

  // Per-rank rows of one host: summed (BS Wmax) or averaged (b_eff per rank).
  Table fits("bs/fits", {text_column("host", 8), text_column("test", 8), int_column("degree"), int_column("fitted"),
                         real_column("Wmax_Bps", "B/s")});
  fits.add_row({{"host", "a"}, {"test", "BS1"}, {"degree", 0}, {"fitted", 1}, {"Wmax_Bps", 3.0}});
  fits.add_row({{"host", "a"}, {"test", "BS1"}, {"degree", 0}, {"fitted", 1}, {"Wmax_Bps", 4.0}});
  fits.add_row({{"host", "a"}, {"test", "BS1"}, {"degree", 0}, {"fitted", 0}, {"Wmax_Bps", 100.0}});
  const NodeMetric wmax{"bs.wmax", "bs/fits", "Wmax_Bps", "B/s", {{"fitted", "1"}}, {"test", "degree"}};
  const auto summed = node_metric_values(wmax, {fits});
  ASSERT_EQ(summed.size(), 1u);
  EXPECT_EQ(summed[0].metric, "bs.wmax[BS1,0]");
  EXPECT_DOUBLE_EQ(summed[0].value, 7.0);
  NodeMetric mean = wmax;
  mean.per_host = HostAggregate::Mean;
  EXPECT_DOUBLE_EQ(node_metric_values(mean, {fits})[0].value, 3.5);
}

TEST(NodeFlags, ASlowNodeIsFlaggedWithItsFigures) {
  const Table nodes = stream_nodes({{"n1", 10.0}, {"n2", 10.2}, {"n3", 5.0}, {"n4", 9.9}, {"n5", 10.1}});
  const Table flags = node_flags({kTriad}, {nodes}, FlagSettings{});
  ASSERT_EQ(flags.rows(), 1u);
  EXPECT_EQ(flags.get_string(0, "host"), "n3");
  EXPECT_EQ(flags.get_string(0, "metric"), "stream.triad[double]");
  EXPECT_DOUBLE_EQ(flags.get_double(0, "value"), 5.0);
  // Its peers 9.9, 10, 10.1, 10.2: median 10.05.
  EXPECT_DOUBLE_EQ(flags.get_double(0, "median"), 10.05);
  EXPECT_NEAR(flags.get_double(0, "mad"), 0.1, 1e-12);  // all five: |v-10| = 0, .2, 5, .1, .1
  // sigma = max(1.4826 * 0.1, 1 % of 10.05)
  EXPECT_NEAR(flags.get_double(0, "robust_z"), (5.0 - 10.05) / 0.14826, 1e-9);
  EXPECT_NEAR(flags.get_double(0, "percent_of_median"), 100 * 5.0 / 10.05, 1e-9);
  EXPECT_NEAR(flags.get_double(0, "threshold"), 0.75 * 10.05, 1e-12);  // 5 nodes: the fraction rule only
  EXPECT_EQ(flags.get_string(0, "unit"), "B/s");
  EXPECT_EQ(flags.get_string(0, "rule"), "fraction");
  EXPECT_EQ(flags.get_string(0, "status"), "not retested");
  EXPECT_EQ(flags.get_int(0, "cohort_nodes"), 5);
  EXPECT_EQ(flags.get_string(0, "cohort"), "unknown hardware");
  EXPECT_EQ(flagged_hosts(flags), std::vector<std::string>{"n3"});
}

TEST(NodeFlags, FourNoisyNodesStillNameTheOneAtAFifth) {
  // The survey the issue reports: n3 at 4.6 GB/s against 19-29 on the
  // others. The old rule (median - 4 x 1.4826 x MAD, below zero here) left it.
  const Table noisy = stream_nodes({{"n1", 19e9}, {"n2", 24e9}, {"n3", 4.6e9}, {"n4", 29e9}});
  const Table flags = node_flags({kTriad}, {noisy}, FlagSettings{});
  ASSERT_EQ(flags.rows(), 1u);
  EXPECT_EQ(flags.get_string(0, "host"), "n3");
  EXPECT_DOUBLE_EQ(flags.get_double(0, "median"), 24e9);  // of 19, 24, 29
  // n1 at 19 is 79 % of its peers' median (4.6, 24, 29: 24): not flagged at
  // 0.75, flagged when --flags.fraction asks for 0.8 (19 < 19.2).
  FlagSettings strict;
  strict.fraction = 0.8;
  EXPECT_EQ(flagged_hosts(node_flags({kTriad}, {noisy}, strict)), (std::vector<std::string>{"n1", "n3"}));
}

TEST(NodeFlags, TheSpreadRuleNeedsEightNodesAndFivePercent) {
  // Ten nodes that agree to 0.1 %: 9.7 is many robust deviations low but
  // within 5 % of the median, which is not actionable.
  const Table tight = stream_nodes({{"a", 10.0}, {"b", 10.01}, {"c", 9.99}, {"d", 10.0}, {"e", 10.0}, {"f", 10.01},
                                    {"g", 9.99}, {"h", 10.0}, {"i", 10.0}, {"j", 9.7}});
  EXPECT_EQ(node_flags({kTriad}, {tight}, FlagSettings{}).rows(), 0u);
  // 9.0 (90 %): sigma floor 0.1; k_10 = 3.5 - 3.2/3.162 = 2.488; limit min(10 - 0.249, 9.5) = 9.5.
  const Table ninety = stream_nodes({{"a", 10.0}, {"b", 10.01}, {"c", 9.99}, {"d", 10.0}, {"e", 10.0}, {"f", 10.01},
                                     {"g", 9.99}, {"h", 10.0}, {"i", 10.0}, {"j", 9.0}});
  const Table flags = node_flags({kTriad}, {ninety}, FlagSettings{});
  ASSERT_EQ(flags.rows(), 1u);
  EXPECT_EQ(flags.get_string(0, "host"), "j");
  EXPECT_EQ(flags.get_string(0, "rule"), "spread");
  EXPECT_NEAR(flags.get_double(0, "threshold"), 9.5, 1e-12);
  // The same 90 % among 4 nodes is left to the fraction rule: not flagged.
  const Table four = stream_nodes({{"a", 10.0}, {"b", 10.01}, {"c", 9.99}, {"j", 9.0}});
  EXPECT_EQ(node_flags({kTriad}, {four}, FlagSettings{}).rows(), 0u);
}

TEST(NodeFlags, NodesAreComparedWithinTheirCohortOnly) {
  // Three fat nodes at 20, three thin ones at 10: one median would flag the thin ones.
  const Table mixed = stream_nodes({{"f1", 20.0}, {"f2", 20.1}, {"f3", 19.9}, {"t1", 10.0}, {"t2", 10.1}, {"t3", 9.9}});
  EXPECT_EQ(flagged_hosts(node_flags({kTriad}, {mixed}, FlagSettings{})), (std::vector<std::string>{"t1", "t2", "t3"}));
  const NodeCohorts cohorts = {{"f1", "fat"}, {"f2", "fat"}, {"f3", "fat"}, {"t1", "thin"}, {"t2", "thin"},
                               {"t3", "thin"}, {"t4", "thin"}};
  EXPECT_EQ(node_flags({kTriad}, {mixed}, FlagSettings{}, cohorts).rows(), 0u);
  // A slow thin node is named against the thin median.
  const Table slow = stream_nodes({{"f1", 20.0}, {"f2", 20.1}, {"f3", 19.9}, {"t1", 10.0}, {"t2", 10.1}, {"t3", 9.9},
                                   {"t4", 5.0}});
  const Table flags = node_flags({kTriad}, {slow}, FlagSettings{}, cohorts);
  ASSERT_EQ(flags.rows(), 1u);
  EXPECT_EQ(flags.get_string(0, "host"), "t4");
  EXPECT_EQ(flags.get_string(0, "cohort"), "thin");
  EXPECT_EQ(flags.get_int(0, "cohort_nodes"), 4);
  EXPECT_DOUBLE_EQ(flags.get_double(0, "median"), 10.0);
  // A cohort of two gets only the absolute rules.
  const NodeCohorts pairs = {{"f1", "fat"}, {"f2", "fat"}, {"t1", "thin"}, {"t4", "thin"}};
  const Table two_by_two = stream_nodes({{"f1", 20.0}, {"f2", 20.1}, {"t1", 10.0}, {"t4", 1.0}});
  EXPECT_EQ(node_flags({kTriad}, {two_by_two}, FlagSettings{}, pairs).rows(), 0u);
}

TEST(NodeFlags, ARetestConfirmsOrDismisses) {
  const Table nodes = stream_nodes({{"n1", 10.0}, {"n2", 10.2}, {"n3", 5.0}, {"n4", 9.9}, {"n5", 4.0}});
  Table flags = node_flags({kTriad}, {nodes}, FlagSettings{});
  ASSERT_EQ(flagged_hosts(flags), (std::vector<std::string>{"n3", "n5"}));
  // Threshold 0.75 x the peers' median: n3's peers 9.9, 10, 10.2, 4 -> 9.95 -> 7.4625.
  auto retest = [](const char* host, double v) {
    return NodeMetricValue{"stream.triad[double]", "stream.triad", host, v, "B/s", true, ""};
  };
  apply_retests(flags, {retest("n3", 5.1), retest("n5", 9.8), retest("n5", 4.0), retest("n5", 9.9)});
  EXPECT_EQ(flags.get_string(0, "status"), "confirmed");
  EXPECT_EQ(flags.get_string(0, "retest_values"), "5.1");
  EXPECT_DOUBLE_EQ(flags.get_double(0, "retest_median"), 5.1);
  EXPECT_EQ(flags.get_string(1, "status"), "not confirmed (transient)");  // median of 9.8, 4, 9.9 = 9.8
  EXPECT_EQ(flags.get_string(1, "retest_values"), "9.8,4,9.9");
  EXPECT_DOUBLE_EQ(flags.get_double(1, "value"), 4.0);  // the first value stays
  EXPECT_EQ(flagged_hosts(flags, true), std::vector<std::string>{"n3"});
}

TEST(NodeFlags, FloorsApplyAlsoBelowThreeNodes) {
  const Table two = stream_nodes({{"a", 10.0}, {"b", 1.0}});
  EXPECT_EQ(node_flags({kTriad}, {two}, FlagSettings{}).rows(), 0u);  // no median rule with 2 nodes
  FlagSettings floors;
  floors.floors["stream.triad"] = 5.0;
  const Table flags = node_flags({kTriad}, {two}, floors);
  ASSERT_EQ(flags.rows(), 1u);
  EXPECT_EQ(flags.get_string(0, "host"), "b");
  EXPECT_DOUBLE_EQ(flags.get_double(0, "threshold"), 5.0);
  EXPECT_EQ(flags.get_string(0, "rule"), "floor");
  EXPECT_NE(flags.get_string(0, "reason").find("below the floor 5 B/s"), std::string::npos);
  // A group's floor wins over the name's.
  floors.floors["stream.triad[double]"] = 0.5;
  EXPECT_EQ(node_flags({kTriad}, {two}, floors).rows(), 0u);
}

TEST(NodeFlags, TimesAreMirrored) {
  NodeMetric latency{"pmbw.perm_ram", "pmbw/nodes", "perm_ram_access_seconds", "s", {}, {}, HostAggregate::Mean, false};
  Table t("pmbw/nodes", {text_column("host", 8), real_column("perm_ram_access_seconds", "s")});
  for (auto [h, s] : std::vector<std::pair<const char*, double>>{{"a", 100e-9}, {"b", 101e-9}, {"c", 99e-9}, {"d", 300e-9}})
    t.add_row({{"host", h}, {"perm_ram_access_seconds", s}});
  const Table flags = node_flags({latency}, {t}, FlagSettings{});
  ASSERT_EQ(flags.rows(), 1u);
  EXPECT_EQ(flags.get_string(0, "host"), "d");
  EXPECT_LT(flags.get_double(0, "robust_z"), -4);  // on rates: worse is negative
  EXPECT_NEAR(flags.get_double(0, "median"), 100e-9, 1e-15);  // of 99, 100, 101 ns
  EXPECT_NEAR(flags.get_double(0, "threshold"), 100e-9 / 0.75, 1e-15);
}

TEST(Cohorts, HardwareClassesFromTheNodeTable) {
  Table nodes("nodes/table", {text_column("host", 8), int_column("cores"), int_column("memory_bytes", "B"),
                              text_column("cpu_model", 64)});
  const std::int64_t gib = std::int64_t{1} << 30;
  nodes.add_row({{"host", "a"}, {"cores", 64}, {"memory_bytes", 251 * gib}, {"cpu_model", "Xeon 8380"}});
  nodes.add_row({{"host", "b"}, {"cores", 64}, {"memory_bytes", 240 * gib}, {"cpu_model", "Xeon 8380"}});
  nodes.add_row({{"host", "c"}, {"cores", 64}, {"memory_bytes", 503 * gib}, {"cpu_model", "Xeon 8380"}});
  nodes.add_row({{"host", "d"}, {"cores", 32}, {"memory_bytes", 251 * gib}, {"cpu_model", "Xeon 8380"}});
  const NodeCohorts cohorts = node_cohorts(nodes);
  EXPECT_EQ(cohorts.at("a"), "Xeon 8380, 64 cores, 256 GiB");  // 251 and 240 GiB: one class
  EXPECT_EQ(cohorts.at("b"), cohorts.at("a"));
  EXPECT_EQ(cohorts.at("c"), "Xeon 8380, 64 cores, 512 GiB");
  EXPECT_EQ(cohorts.at("d"), "Xeon 8380, 32 cores, 256 GiB");
  EXPECT_NEAR(memory_class_gib(static_cast<std::uint64_t>(224 * gib)), 215.2694823049509, 1e-9);  // 2^(31/4)
}

TEST(NodeFlags, OptionsAreCheckedWithTheirRanges) {
  const std::vector<NodeMetric> metrics = {kTriad};
  auto error = [&](std::map<std::string, std::string, std::less<>> values) {
    return test::usage_error_of([&] { catalog::read_flag_settings(Config(std::move(values), {}), metrics); });
  };
  EXPECT_EQ(error({{"flags.k", "0"}}), "--flags.k: '0' is out of range; allowed: > 0 and <= 100");
  EXPECT_DOUBLE_EQ(catalog::read_flag_settings(Config({}, {}), metrics).k, 3.5);
  EXPECT_DOUBLE_EQ(catalog::read_flag_settings(Config({}, {}), metrics).fraction, 0.75);
  EXPECT_EQ(error({{"flags.fraction", "1.5"}}), "--flags.fraction: '1.5' is out of range; allowed: > 0 and <= 1");
  EXPECT_EQ(error({{"flags.floor", "bogus=3"}}), "--flags.floor: unknown metric 'bogus'; metrics: stream.triad");
  EXPECT_EQ(error({{"flags.floor", "stream.triad"}}),
            "--flags.floor: 'stream.triad' is not METRIC=VALUE; metrics: stream.triad");
  const FlagSettings s = catalog::read_flag_settings(
      Config({{"flags.k", "3"}, {"flags.fraction", "0.8"}, {"flags.floor", "stream.triad=2e10, stream.triad[float]=1e10"}},
             {}),
      metrics);
  EXPECT_DOUBLE_EQ(s.k, 3);
  EXPECT_DOUBLE_EQ(s.fraction, 0.8);
  EXPECT_DOUBLE_EQ(s.floors.at("stream.triad"), 2e10);
  EXPECT_DOUBLE_EQ(s.floors.at("stream.triad[float]"), 1e10);
}

TEST(NodeFlags, TheRegistryDeclaresItsMetricsOnItsTables) {
  // Every metric names a table its own benchmark returns, and a unit. (A
  // metric's name may differ from its table's group: ocl.triad, kept for
  // the reference files of schema 1.x, reads STREAM's device rows.)
  ASSERT_GE(catalog::all_node_metrics().size(), 3u);
  for (const auto& entry : catalog::benchmark_registry())
    for (const NodeMetric& m : entry.node_metrics) {
      EXPECT_FALSE(m.unit.empty()) << m.name;
      EXPECT_EQ(m.table.substr(0, m.table.find('/')), entry.name) << m.name;
    }
}
