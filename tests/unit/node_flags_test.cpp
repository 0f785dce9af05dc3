// lib/model: the robust statistics, the node metrics read from Tables, the
// slow-node flags and their options, on inputs whose answers are known.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "TestSupport.hpp"
#include "core/Config.hpp"
#include "core/ResultColumns.hpp"
#include "model/NodeFlags.hpp"
#include "model/RobustStats.hpp"
#include "survey/Registry.hpp"

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
  EXPECT_DOUBLE_EQ(flags.get_double(0, "median"), 10.0);
  EXPECT_NEAR(flags.get_double(0, "mad"), 0.1, 1e-12);  // |v-10| = 0, .2, 5, .1, .1
  EXPECT_NEAR(flags.get_double(0, "robust_z"), -5.0 / (1.4826 * 0.1), 1e-9);
  EXPECT_DOUBLE_EQ(flags.get_double(0, "percent_of_median"), 50.0);
  // min(median - 4*1.4826*MAD, 0.9*median) = min(9.40696, 9)
  EXPECT_NEAR(flags.get_double(0, "threshold"), 9.0, 1e-12);
  EXPECT_EQ(flags.get_string(0, "unit"), "B/s");
  EXPECT_NE(flags.get_string(0, "reason").find("robust z"), std::string::npos);
  EXPECT_EQ(flagged_hosts(flags), std::vector<std::string>{"n3"});
}

TEST(NodeFlags, BothRobustConditionsMustHold) {
  // Nodes that agree to 0.1 %: 9.7 is 30 robust deviations low but 97 % of
  // the median, which is not slow.
  const Table tight = stream_nodes({{"a", 10.0}, {"b", 10.01}, {"c", 9.99}, {"d", 10.0}, {"e", 9.7}});
  EXPECT_EQ(node_flags({kTriad}, {tight}, FlagSettings{}).rows(), 0u);
  // Noisy nodes: 8.5 is 85 % of the median but within 4 robust deviations.
  const Table noisy = stream_nodes({{"a", 10.0}, {"b", 12.0}, {"c", 8.0}, {"d", 11.0}, {"e", 8.5}});
  EXPECT_EQ(node_flags({kTriad}, {noisy}, FlagSettings{}).rows(), 0u);
  FlagSettings lenient;
  lenient.k = 0.5;
  EXPECT_EQ(flagged_hosts(node_flags({kTriad}, {noisy}, lenient)), (std::vector<std::string>{"c", "e"}));
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
  EXPECT_GT(flags.get_double(0, "robust_z"), 4);
}

TEST(NodeFlags, OptionsAreCheckedWithTheirRanges) {
  const std::vector<NodeMetric> metrics = {kTriad};
  auto error = [&](std::map<std::string, std::string, std::less<>> values) {
    return test::usage_error_of([&] { parse_flag_settings(Config(std::move(values), {}), metrics); });
  };
  EXPECT_EQ(error({{"flags.k", "0"}}), "--flags.k: 0 is out of range; allowed: a number > 0");
  EXPECT_EQ(error({{"flags.fraction", "1.5"}}), "--flags.fraction: 1.5 is out of range; allowed: (0, 1]");
  EXPECT_EQ(error({{"flags.floor", "bogus=3"}}), "--flags.floor: unknown metric 'bogus'; metrics: stream.triad");
  EXPECT_EQ(error({{"flags.floor", "stream.triad"}}),
            "--flags.floor: 'stream.triad' is not METRIC=VALUE; metrics: stream.triad");
  const FlagSettings s = parse_flag_settings(
      Config({{"flags.k", "3"}, {"flags.fraction", "0.8"}, {"flags.floor", "stream.triad=2e10, stream.triad[float]=1e10"}},
             {}),
      metrics);
  EXPECT_DOUBLE_EQ(s.k, 3);
  EXPECT_DOUBLE_EQ(s.fraction, 0.8);
  EXPECT_DOUBLE_EQ(s.floors.at("stream.triad"), 2e10);
  EXPECT_DOUBLE_EQ(s.floors.at("stream.triad[float]"), 1e10);
}

TEST(NodeFlags, TheRegistryDeclaresItsMetricsOnItsTables) {
  // Every metric names a table its benchmark returns and a unit.
  const auto metrics = survey::all_node_metrics();
  ASSERT_GE(metrics.size(), 3u);
  for (const NodeMetric& m : metrics) {
    EXPECT_FALSE(m.unit.empty()) << m.name;
    EXPECT_EQ(m.table.substr(0, m.table.find('/')), m.name.substr(0, m.name.find('.'))) << m.name;
  }
}
