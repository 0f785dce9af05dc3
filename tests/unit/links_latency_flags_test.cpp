// The link map's latency verdicts (model/LatencyVerdicts.hpp through
// links/LinksFlags): injected latency matrices go through what a run does
// (each member's row reduced to its record, the tables rank 0 makes) and
// the /flags rows must name the delayed host, or the delayed uplink, and
// nothing else. The rule's defaults are written out here by hand (3 x the
// cohort peers' median and 1 ms above it), as are the expected figures.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "links/LinksFlags.hpp"
#include "links/LinksTables.hpp"
#include "model/LatencyVerdicts.hpp"
#include "model/LinkRows.hpp"
#include "model/NodeFlags.hpp"
#include "model/SwitchTopology.hpp"
#include "report/Drain.hpp"
#include "StoredLinkTables.hpp"
#include "report/FlagReport.hpp"
#include "report/SummaryVerdicts.hpp"

using namespace bws;

namespace {

constexpr double kLinkBps = 10e9;
constexpr double kDelay_s = 2e-3;

std::vector<std::string> host_names(int n) {
  std::vector<std::string> hosts;
  // append, not "h" + to_string: GCC 12's -Wrestrict false positive (bug 105329)
  for (int i = 1; i <= n; ++i) hosts.push_back(std::string("h").append(std::to_string(i)));
  return hosts;
}

// Bandwidth everywhere kLinkBps x bandwidth(i, j) (+-2 %); latency_s[j] of
// member i: latency(i, j) seconds (the ping-pong i started with j).
std::vector<links::MemberRows> member_rows(int n, const std::function<double(int, int)>& latency,
                                           const std::function<double(int, int)>& bandwidth = nullptr) {
  std::mt19937 generator(1717);
  std::uniform_real_distribution<double> noise(0.98, 1.02);
  std::vector<links::MemberRows> rows(static_cast<std::size_t>(n));
  for (auto& r : rows) r.send_Bps = r.recv_Bps = r.latency_s = std::vector<float>(static_cast<std::size_t>(n), NAN);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (i != j) {
        const double factor = bandwidth ? bandwidth(i, j) : 1.0;
        rows[i].send_Bps[j] = static_cast<float>(kLinkBps * factor * noise(generator));
        rows[j].recv_Bps[i] = static_cast<float>(kLinkBps * factor * noise(generator));
        rows[i].latency_s[j] = static_cast<float>(latency(i, j));
      }
  return rows;
}

std::vector<Table> stored_tables(const std::vector<links::MemberRows>& rows, const model::SwitchTopology* topology) {
  return test_support::stored_link_tables(rows, topology, host_names(static_cast<int>(rows.size())));
}

Table flags_of(const std::vector<links::MemberRows>& rows, const model::SwitchTopology* topology = nullptr) {
  return links::links_flags(stored_tables(rows, topology), FlagInputs{3.5, 0.75, nullptr});
}

std::vector<std::string> described(const Table& flags) {
  std::vector<std::string> out;
  for (std::size_t r = 0; r < flags.rows(); ++r)
    out.push_back(flags.get_string(r, "metric") + " " + flags.get_string(r, "host"));
  return out;
}

// 40 us +-5 % between any two hosts, plus 2 ms on every pair with `delayed` (index).
std::function<double(int, int)> one_delayed_host(int delayed) {
  auto generator = std::make_shared<std::mt19937>(99);
  return [=](int i, int j) {
    std::uniform_real_distribution<double> noise(0.95, 1.05);
    return 40e-6 * noise(*generator) + (i == delayed || j == delayed ? kDelay_s : 0.0);
  };
}

TEST(LinksLatencyFlags, OneDelayedHostIsNamedAloneAtFourFiveAndEightHosts) {
  for (const int n : {4, 5, 8}) {
    const Table flags = flags_of(member_rows(n, one_delayed_host(2)));
    ASSERT_EQ(described(flags), std::vector<std::string>{"links.node_latency h3"}) << "n=" << n;
    EXPECT_NEAR(flags.get_double(0, "value"), 2.04e-3, 0.003e-3) << "n=" << n;
    EXPECT_NEAR(flags.get_double(0, "median"), 40e-6, 2e-6) << "n=" << n;
    EXPECT_NEAR(flags.get_double(0, "threshold"), 1.04e-3, 2e-6) << "n=" << n;  // 1 ms above the median
    EXPECT_NEAR(flags.get_double(0, "percent_of_median"), 5100, 300) << "n=" << n;
    EXPECT_EQ(flags.get_string(0, "unit"), "s");
    EXPECT_EQ(flags.get_string(0, "rule"), "latency");
    EXPECT_EQ(flags.get_string(0, "status"), model::kFlagNotRetested);
    const std::string& reason = flags.get_string(0, "reason");
    EXPECT_EQ(reason.rfind("h3: median latency 2.04 ms, ", 0), 0u) << reason;
    EXPECT_NE(reason.find(" x the cohort median 4"), std::string::npos) << reason;
    EXPECT_EQ(reason.substr(reason.size() - 3), " us") << reason;
  }
}

TEST(LinksLatencyFlags, TheDelayedHostIsANodeForSummaryAndDrainAsASlowNic) {
  const Table flags = flags_of(member_rows(5, one_delayed_host(2)));
  ASSERT_EQ(flags.rows(), 1u);
  EXPECT_EQ(model::flagged_hosts(flags), std::vector<std::string>{"h3"});
  const std::vector<std::string> lines = report::flag_verdict_lines(flags, 5, "s.h5");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "Flagged nodes (1 of 5): h3");
  EXPECT_EQ(lines[1].rfind("  links.node_latency: h3: median latency 2.04 ms, ", 0), 0u) << lines[1];
  EXPECT_EQ(lines[1].substr(lines[1].size() - 14), "; not retested") << lines[1];
  // bwreport flags: the line the pretend cluster's delay scenario looks for.
  const std::vector<std::string> report = report::flag_summary_lines(flags, 5, {});
  ASSERT_EQ(report.size(), 2u);
  EXPECT_EQ(report[0], "Flagged nodes (1 of 5): h3");
  EXPECT_EQ(report[1].rfind("  links.node_latency: h3: median latency 2.04 ms, ", 0), 0u) << report[1];
  std::vector<std::string> refusals;
  const std::vector<std::string> drain = report::drain_lines(flags, "7", true, refusals);
  ASSERT_EQ(drain.size(), 1u);
  EXPECT_EQ(
      drain[0].rfind("scontrol update NodeName=h3 State=DRAIN 'Reason=bwsurvey: unretested links.node_latency 2", 0),
      0u)
      << drain[0];
}

TEST(LinksLatencyFlags, ACleanNoisyMapNamesNobody) {
  // Every pair anywhere in 20..300 us, as TCP between namespaces on two
  // shared cores measures it: each host's median moves, none by 3 x.
  for (const int n : {4, 5, 8, 16})
    for (const unsigned seed : {1u, 2u, 3u, 4u, 5u}) {
      auto generator = std::make_shared<std::mt19937>(seed);
      const auto noisy = [generator](int, int) {
        return std::uniform_real_distribution<double>(20e-6, 300e-6)(*generator);
      };
      EXPECT_EQ(flags_of(member_rows(n, noisy)).rows(), 0u) << "n=" << n << " seed=" << seed;
    }
}

TEST(LinksLatencyFlags, TheFloorAndTheFactorMustBothBePassed) {
  const auto fabric = [](double slow_s) {
    return [slow_s](int i, int j) { return 1.5e-6 + (i == 3 || j == 3 ? slow_s : 0.0); };
  };
  // 6 us among 1.5 us: 4 x, but 4.5 us above: noise on InfiniBand, not a fault.
  EXPECT_EQ(flags_of(member_rows(8, fabric(4.5e-6))).rows(), 0u);
  // 990 us above (661 x) is still under the floor; 1.2 ms above is named.
  EXPECT_EQ(flags_of(member_rows(8, fabric(990e-6))).rows(), 0u);
  EXPECT_EQ(described(flags_of(member_rows(8, fabric(1.2e-3)))), std::vector<std::string>{"links.node_latency h4"});
  // And the factor: 2.7 ms among 1 ms is 1.7 ms above, but only 2.7 x; 3.2 ms is 3.2 x.
  const auto slow_fabric = [](double extra_s) {
    return [extra_s](int i, int j) { return 1e-3 + (i == 3 || j == 3 ? extra_s : 0.0); };
  };
  EXPECT_EQ(flags_of(member_rows(8, slow_fabric(1.7e-3))).rows(), 0u);
  EXPECT_EQ(described(flags_of(member_rows(8, slow_fabric(2.2e-3)))),
            std::vector<std::string>{"links.node_latency h4"});
}

TEST(LinksLatencyFlags, NoLatencyMeasuredOrTooFewHostsOrOneSharedHostGiveNoRow) {
  EXPECT_EQ(flags_of(member_rows(8, [](int, int) { return NAN; })).rows(), 0u);  // --no-links.latency
  EXPECT_EQ(flags_of(member_rows(3, one_delayed_host(2))).rows(), 0u);           // 2 peers: no node verdict
  // Ranks of one host: no NIC of their own, no node verdict.
  std::vector<links::NodeRecord> records;
  const auto rows = member_rows(5, one_delayed_host(2));
  for (std::size_t i = 0; i < rows.size(); ++i)
    records.push_back(links::summarize_member(rows[i], static_cast<int>(i), static_cast<int>(i), "vm"));
  EXPECT_EQ(links::links_flags(links::links_tables(records, "test plan"), FlagInputs{3.5, 0.75, nullptr}).rows(), 0u);
}

TEST(LinksLatencyFlags, ASlowNicIsNamedForItsBandwidthNotAgainForItsQueuedPingPongs) {
  const auto slow = [](int i, int j) { return i == 2 || j == 2 ? 0.25 : 1.0; };
  const Table flags = flags_of(member_rows(8, one_delayed_host(2), slow));
  EXPECT_EQ(described(flags), (std::vector<std::string>{"links.node_out h3", "links.node_in h3"}));
}

const char* const kSixAndTwo =
    "SwitchName=s1 Nodes=h[1-6]\nSwitchName=s2 Nodes=h[7-8]\nSwitchName=top Switches=s[1-2]\n";
const char* const kFourAndFour =
    "SwitchName=s1 Nodes=h[1-4]\nSwitchName=s2 Nodes=h[5-8]\nSwitchName=top Switches=s[1-2]\n";
const char* const kTwoAndTwo =
    "SwitchName=s1 Nodes=h[1-2]\nSwitchName=s2 Nodes=h[3-4]\nSwitchName=top Switches=s[1-2]\n";

// 40 us within a leaf, 2 ms more across the uplink between s1 (hosts below `split`) and s2.
std::function<double(int, int)> delayed_uplink(int split) {
  return [split](int i, int j) { return 40e-6 + ((i < split) != (j < split) ? kDelay_s : 0.0); };
}

TEST(LinksLatencyFlags, ADelayedUplinkOfTheSmallerLeafIsOneUplinkVerdictNotItsHosts) {
  const model::SwitchTopology tree = model::SwitchTopology::parse(kSixAndTwo, "test");
  const Table flags = flags_of(member_rows(8, delayed_uplink(6)), &tree);
  ASSERT_EQ(described(flags), std::vector<std::string>{"links.uplink_latency s2->top"});
  EXPECT_NEAR(flags.get_double(0, "value"), 2.04e-3, 1e-6);  // h7 and h8: 6 of 7 pairs across
  EXPECT_NEAR(flags.get_double(0, "median"), 40e-6, 1e-6);   // h1..h6: 2 of 7
  EXPECT_EQ(flags.get_string(0, "reason"),
            "uplink of leaf s2 (s2->top): its 2 hosts at median latency 2.04 ms, 51 x the cohort median 40 us");
  // Not a node's fault: nothing drained, no flagged host.
  EXPECT_TRUE(model::flagged_hosts(flags).empty());
  std::vector<std::string> refusals;
  EXPECT_TRUE(report::drain_lines(flags, "7", true, refusals).empty());
  // Without the tree the same map names the two hosts: nothing tells the uplink.
  EXPECT_EQ(described(flags_of(member_rows(8, delayed_uplink(6)))),
            (std::vector<std::string>{"links.node_latency h7", "links.node_latency h8"}));
}

TEST(LinksLatencyFlags, ADelayedUplinkBetweenHalvesNamesNoHost) {
  // Every host has half its pairs or more across: the cohort's median rises
  // with its own, and no host stands out (the latency map shows the blocks).
  const model::SwitchTopology four = model::SwitchTopology::parse(kFourAndFour, "test");
  EXPECT_EQ(flags_of(member_rows(8, delayed_uplink(4)), &four).rows(), 0u);
  const model::SwitchTopology two = model::SwitchTopology::parse(kTwoAndTwo, "test");
  EXPECT_EQ(flags_of(member_rows(4, delayed_uplink(2)), &two).rows(), 0u);
}

TEST(LinksLatencyFlags, ADelayedHostInALeafOfTwoIsTheHostNotTheUplink) {
  const model::SwitchTopology tree = model::SwitchTopology::parse(kTwoAndTwo, "test");
  EXPECT_EQ(described(flags_of(member_rows(4, one_delayed_host(2)), &tree)),
            std::vector<std::string>{"links.node_latency h3"});
  const model::SwitchTopology six = model::SwitchTopology::parse(kSixAndTwo, "test");
  EXPECT_EQ(described(flags_of(member_rows(8, one_delayed_host(6)), &six)),
            std::vector<std::string>{"links.node_latency h7"});
}

TEST(LinksLatencyFlags, LatencyTextSaysMicrosecondsOrMilliseconds) {
  EXPECT_EQ(model::latency_text(40e-6), "40 us");
  EXPECT_EQ(model::latency_text(999e-6), "999 us");
  EXPECT_EQ(model::latency_text(2.04e-3), "2.04 ms");
  EXPECT_EQ(model::latency_text(NAN), "n/a");
}

}  // namespace
