// --retest on the link map's node verdicts: a links.node_out / links.node_in
// row is measured again by the links entry's retest metrics (a retest
// round's /links/nodes medians of the flagged host), so a NIC still slow in
// the retest is confirmed and drained, and one that recovered is dismissed.
// Pair and uplink verdicts name links and are never retested. The maps are
// synthetic (every pair at 10 GB/s, the injected factors written by hand);
// the retest round's tables are made the way a run's rank 0 makes them.
#include <gtest/gtest.h>

#include <functional>
#include <utility>
#include <string>
#include <vector>

#include "catalog/Registry.hpp"
#include "links/LinksCatalogEntry.hpp"
#include "links/LinksFlags.hpp"
#include "links/LinksTables.hpp"
#include "model/LinkVerdicts.hpp"
#include "model/NodeFlags.hpp"
#include "model/NodeMetrics.hpp"
#include "report/Drain.hpp"
#include "run/Retest.hpp"

using namespace bws;

namespace {

constexpr double kLinkBps = 10e9;
constexpr int kHosts = 6;
const std::string kSlowHost = "n3";

// factor(i, j): i -> j at factor x 10 GB/s, as both ends timed it;
// latency_s(i, j) the pair's latency as i timed it.
std::vector<Table> link_map_tables(const std::function<double(int, int)>& factor,
                                   const std::function<double(int, int)>& latency_s = [](int, int) { return 1e-6; }) {
  std::vector<links::NodeRecord> records;
  for (int i = 0; i < kHosts; ++i) {
    links::MemberRows rows;
    rows.send_Bps = rows.recv_Bps = rows.latency_s = std::vector<float>(kHosts, NAN);
    for (int j = 0; j < kHosts; ++j)
      if (i != j) {
        rows.send_Bps[j] = static_cast<float>(kLinkBps * factor(i, j));
        rows.recv_Bps[j] = static_cast<float>(kLinkBps * factor(j, i));
        rows.latency_s[j] = static_cast<float>(latency_s(i, j));
      }
    std::string host = "n";
    host += std::to_string(i);
    records.push_back(links::summarize_member(rows, i, i, host));
  }
  return links::links_tables(records, "test plan");
}

// A NIC at `nic` of the others' speed both ways.
std::vector<Table> map_with_slow_nic(double nic) {
  return link_map_tables([nic](int i, int j) { return i == 3 || j == 3 ? nic : 1.0; });
}

Table first_flags(const std::vector<Table>& tables) {
  return links::links_flags(tables, FlagInputs{3.5, 0.75, nullptr});
}

// What Retest::run keeps of a round: the retest metrics' values of the flagged host.
std::vector<model::NodeMetricValue> retest_values(const std::vector<Table>& round) {
  std::vector<model::NodeMetricValue> kept;
  for (model::NodeMetricValue& v : model::node_metric_values(links::catalog_entry().retested_by(), round))
    if (v.host == kSlowHost) kept.push_back(std::move(v));
  return kept;
}

std::vector<std::string> drained(const Table& flags) {
  std::vector<std::string> refusals;
  return report::drain_lines(flags, "77", false, refusals);
}

}  // namespace

TEST(LinksRetest, NodeVerdictsAreRetestedByTheLinksEntryAndLinksAreNot) {
  for (const char* metric : {model::kLinksNodeOut, model::kLinksNodeIn, model::kLinksNodeLatency}) {
    const CatalogEntry* entry = run::entry_retesting(metric);
    ASSERT_NE(entry, nullptr) << metric;
    EXPECT_EQ(entry->name, "links");
  }
  EXPECT_EQ(run::entry_retesting(model::kLinksPair), nullptr);
  EXPECT_EQ(run::entry_retesting(model::kLinksUplink), nullptr);
  ASSERT_NE(run::entry_retesting("stream.triad[double]"), nullptr);
  EXPECT_EQ(run::entry_retesting("stream.triad[double]")->name, "stream");
  // The node flags never judge the retest metrics: the entry's rule made those rows.
  EXPECT_TRUE(links::catalog_entry().node_metrics.empty());
}

TEST(LinksRetest, NicStillSlowInTheRetestIsConfirmedAndDrained) {
  Table flags = first_flags(map_with_slow_nic(0.4));
  ASSERT_EQ(flags.rows(), 2u);
  const std::vector<model::NodeMetricValue> values = retest_values(map_with_slow_nic(0.45));
  ASSERT_EQ(values.size(), 3u);  // out, in and latency
  model::apply_retests(flags, values);
  for (std::size_t r = 0; r < flags.rows(); ++r) {
    EXPECT_EQ(flags.get_string(r, "host"), kSlowHost);
    EXPECT_EQ(flags.get_string(r, "status"), model::kFlagConfirmed) << flags.get_string(r, "metric");
    EXPECT_NEAR(flags.get_double(r, "retest_median"), 4.5e9, 1e3);  // the rows are floats
  }
  const std::vector<std::string> lines = drained(flags);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].rfind("scontrol update NodeName=n3 State=DRAIN 'Reason=bwsurvey: links.node_", 0), 0u)
      << lines[0];
}

TEST(LinksRetest, NicThatRecoveredIsTransientAndNotDrained) {
  Table flags = first_flags(map_with_slow_nic(0.4));
  ASSERT_EQ(flags.rows(), 2u);
  model::apply_retests(flags, retest_values(map_with_slow_nic(1.0)));
  for (std::size_t r = 0; r < flags.rows(); ++r) {
    EXPECT_EQ(flags.get_string(r, "status"), model::kFlagTransient) << flags.get_string(r, "metric");
    EXPECT_NEAR(flags.get_double(r, "retest_median"), 10e9, 1e3);
  }
  EXPECT_TRUE(drained(flags).empty());
}

TEST(LinksRetest, PairVerdictStaysNotRetested) {
  const auto slow_pair = [](int i, int j) { return i == 1 && j == 4 ? 0.1 : 1.0; };
  Table flags = first_flags(link_map_tables(slow_pair));
  ASSERT_EQ(flags.rows(), 1u);
  ASSERT_EQ(flags.get_string(0, "metric"), model::kLinksPair);
  // Even with every host's retest values at hand, nothing names the pair.
  model::apply_retests(flags, model::node_metric_values(links::catalog_entry().retested_by(), link_map_tables(slow_pair)));
  EXPECT_EQ(flags.get_string(0, "status"), model::kFlagNotRetested);
  EXPECT_TRUE(drained(flags).empty());
}

// A host 2 ms (one way) behind its link among peers at 40 us: a latency
// verdict, confirmed when the retest still sees it above the row's limit,
// dismissed when the delay is gone.
TEST(LinksRetest, DelayedHostIsConfirmedOnlyWhileStillDelayed) {
  const auto fast = [](int, int) { return 1.0; };
  const auto delayed = [](double host3_s) {
    return [host3_s](int i, int j) { return i == 3 || j == 3 ? host3_s : 40e-6; };
  };
  for (const auto& [retest_s, status] : {std::pair{2e-3, model::kFlagConfirmed}, std::pair{40e-6, model::kFlagTransient}}) {
    Table flags = first_flags(link_map_tables(fast, delayed(2e-3)));
    ASSERT_EQ(flags.rows(), 1u);
    ASSERT_EQ(flags.get_string(0, "metric"), model::kLinksNodeLatency);
    ASSERT_EQ(flags.get_string(0, "host"), kSlowHost);
    model::apply_retests(flags, retest_values(link_map_tables(fast, delayed(retest_s))));
    EXPECT_EQ(flags.get_string(0, "status"), status) << "retest latency " << retest_s;
    EXPECT_NEAR(flags.get_double(0, "retest_median"), retest_s, retest_s * 1e-6);
  }
}
