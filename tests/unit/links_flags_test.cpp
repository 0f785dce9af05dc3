// links/LinksFlags (the link map's make_flags): synthetic matrices with
// one injected fault each go through what a run does (each member's row
// reduced to its record, the tables rank 0 makes, written to a file and
// read back) and the /flags rows must name that fault and nothing else.
// Expected subjects, metrics and fractions are the injected ones, written
// by hand. Also the tree's from_parts round trip and the flag consumers
// (flagged hosts, retest hosts, drain) on link rows.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "h5/ResultFile.hpp"
#include "links/LinksFlags.hpp"
#include "links/LinksTables.hpp"
#include "links/LinksTopology.hpp"
#include "model/LinkRows.hpp"
#include "model/NodeFlags.hpp"
#include "model/SwitchTopology.hpp"
#include "core/Errors.hpp"
#include "report/Drain.hpp"
#include "StoredLinkTables.hpp"

using namespace bws;

namespace {

constexpr double kLinkBps = 10e9;

std::string host_name(int i) { return (i < 10 ? "n0" : "n") + std::to_string(i); }

// send[i][j]: i -> j at i; recv[j][i]: i -> j at j; +-2 % fixed-seed noise.
std::vector<links::MemberRows> member_rows(int n, const std::function<double(int, int)>& factor) {
  std::mt19937 generator(4242);
  std::uniform_real_distribution<double> noise(0.98, 1.02);
  std::vector<links::MemberRows> rows(static_cast<std::size_t>(n));
  for (auto& r : rows) r.send_Bps = r.recv_Bps = r.latency_s = std::vector<float>(static_cast<std::size_t>(n), NAN);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (i != j) {
        rows[i].send_Bps[j] = static_cast<float>(kLinkBps * factor(i, j) * noise(generator));
        rows[j].recv_Bps[i] = static_cast<float>(kLinkBps * factor(i, j) * noise(generator));
        rows[i].latency_s[j] = 1e-6f;
      }
  return rows;
}

// What rank 0 stores: the records, and with a topology the tree.
std::vector<Table> stored_tables(const std::vector<links::MemberRows>& rows, const model::SwitchTopology* topology,
                                 const std::vector<std::string>& hosts) {
  return test_support::stored_link_tables(rows, topology, hosts);
}

std::vector<std::string> named_hosts(int n) {
  std::vector<std::string> hosts;
  for (int i = 0; i < n; ++i) hosts.push_back(host_name(i));
  return hosts;
}

Table flags_of(const std::vector<Table>& tables) { return links::links_flags(tables, FlagInputs{3.5, 0.75, nullptr}); }

std::vector<std::string> described(const Table& flags) {
  std::vector<std::string> out;
  for (std::size_t r = 0; r < flags.rows(); ++r) out.push_back(flags.get_string(r, "metric") + " " + flags.get_string(r, "host"));
  return out;
}

const char* const kTwoLeaves =
    "SwitchName=s1 Nodes=n[00-07]\nSwitchName=s2 Nodes=n[08-15]\nSwitchName=top Switches=s[1-2]\n";

Table flag_row(const std::string& host, const std::string& metric, const std::string& status) {
  Table t = model::make_flags_table();
  t.add_row({{"host", host},           {"cohort", std::string("c")}, {"cohort_nodes", std::int64_t{8}},
             {"metric", metric},       {"value", 1e9},               {"median", 1e10},
             {"mad", NAN},             {"robust_z", NAN},            {"percent_of_median", 10.0},
             {"threshold", 7.5e9},     {"unit", std::string("B/s")}, {"rule", std::string("fraction")},
             {"reason", std::string("r")}, {"retest_values", std::string()}, {"retest_median", NAN},
             {"status", status}});
  return t;
}

}  // namespace

TEST(LinksFlags, SlowNicIsTheNodesOutAndInRowsAndNothingElse) {
  const auto rows = member_rows(8, [](int i, int j) { return i == 5 || j == 5 ? 0.4 : 1.0; });
  const Table flags = flags_of(stored_tables(rows, nullptr, named_hosts(8)));
  ASSERT_EQ(described(flags), (std::vector<std::string>{"links.node_out n05", "links.node_in n05"}));
  for (std::size_t r = 0; r < 2; ++r) {
    EXPECT_NEAR(flags.get_double(r, "percent_of_median"), 40, 2);
    EXPECT_NEAR(flags.get_double(r, "value"), 4e9, 0.1e9);
    EXPECT_NEAR(flags.get_double(r, "median"), 10e9, 0.2e9);
    EXPECT_NEAR(flags.get_double(r, "threshold"), 0.75 * flags.get_double(r, "median"), 1);
    EXPECT_EQ(flags.get_string(r, "unit"), "B/s");
    EXPECT_EQ(flags.get_string(r, "rule"), "fraction");
    EXPECT_EQ(flags.get_string(r, "status"), model::kFlagNotRetested);
    EXPECT_EQ(flags.get_string(r, "reason"), "n05: out 40 %, in 40 % of cohort median");
  }
  EXPECT_EQ(model::flagged_hosts(flags), (std::vector<std::string>{"n05"}));
}

TEST(LinksFlags, SlowPairIsOneRowNamingThePair) {
  const auto rows = member_rows(8, [](int i, int j) { return i == 2 && j == 6 ? 0.1 : 1.0; });
  const Table flags = flags_of(stored_tables(rows, nullptr, named_hosts(8)));
  ASSERT_EQ(described(flags), (std::vector<std::string>{"links.pair n02->n06"}));
  EXPECT_NEAR(flags.get_double(0, "value"), 1e9, 0.03e9);
  EXPECT_NEAR(flags.get_double(0, "percent_of_median"), 10, 0.5);
  EXPECT_EQ(flags.get_string(0, "reason").rfind("link n02->n06: send at 10 % of n02's median send, receive at 10 %", 0), 0u)
      << flags.get_string(0, "reason");
  // Not a node's fault: no flagged host, no drain; the retest list has both ends.
  EXPECT_TRUE(model::flagged_hosts(flags).empty());
  EXPECT_EQ(model::flag_row_hosts("links.pair", "n02->n06"), (std::vector<std::string>{"n02", "n06"}));
  std::vector<std::string> refusals;
  EXPECT_TRUE(report::drain_lines(flags, "7", true, refusals).empty());
  // A recompute with a stricter fraction drops it: the stored low peers are candidates only.
  EXPECT_EQ(links::links_flags(stored_tables(rows, nullptr, named_hosts(8)), FlagInputs{3.5, 0.05, nullptr}).rows(), 0u);
}

TEST(LinksFlags, SlowUplinkBetweenTwoLeavesFromTablesReadBackFromAFile) {
  const model::SwitchTopology topology = model::SwitchTopology::parse(kTwoLeaves, "test");
  const auto rows = member_rows(16, [](int i, int j) { return (i < 8) != (j < 8) ? 0.45 : 1.0; });
  const std::vector<Table> tables = stored_tables(rows, &topology, named_hosts(16));
  const std::string path = ::testing::TempDir() + "links_flags_uplink.h5";
  std::remove(path.c_str());
  {
    h5::ResultFile out = h5::ResultFile::create(path, true);
    for (const Table& t : tables) out.append(t);
    out.close();
  }
  const h5::ResultReader in = h5::ResultReader::open(path);
  std::vector<Table> read;
  for (const char* p : {links::kNodesPath, links::kHostsPath, links::kLowPeersPath, links::kSwitchesPath,
                        links::kLeafMediansPath})
    read.push_back(in.read_table(p));
  EXPECT_EQ(read[1].get_string(0, "leaf"), "s1");
  EXPECT_EQ(read[1].get_string(15, "leaf"), "s2");
  const Table flags = flags_of(read);
  ASSERT_EQ(described(flags), (std::vector<std::string>{"links.uplink s1->s2", "links.uplink s2->s1"}));
  EXPECT_NEAR(flags.get_double(0, "percent_of_median"), 45, 2);
  EXPECT_EQ(flags.get_string(0, "reason").rfind("uplinks between leaf s1 and leaf s2 (s1->top->s2)", 0), 0u);
  EXPECT_TRUE(model::flag_row_hosts("links.uplink", "s1->s2").empty());
  EXPECT_TRUE(model::flagged_hosts(flags).empty());
  std::vector<std::string> refusals;
  EXPECT_TRUE(report::drain_lines(flags, "7", true, refusals).empty());
  // The same from the tables before the file: the file holds all the verdicts need.
  EXPECT_EQ(described(flags_of(tables)), described(flags));
}

TEST(LinksFlags, CleanMapAndMissingTablesGiveNoRows) {
  EXPECT_EQ(flags_of(stored_tables(member_rows(8, [](int, int) { return 1.0; }), nullptr, named_hosts(8))).rows(), 0u);
  EXPECT_EQ(flags_of({}).rows(), 0u);
}

TEST(LinksFlags, MembersSharingAHostAreNamedByRank) {
  const auto rows = member_rows(5, [](int i, int j) { return i == 1 && j == 3 ? 0.05 : 1.0; });
  const Table flags = flags_of(stored_tables(rows, nullptr, std::vector<std::string>(5, "vm")));
  ASSERT_EQ(described(flags), (std::vector<std::string>{"links.pair vm:r1->vm:r3"}));
  EXPECT_EQ(model::flag_row_hosts("links.pair", "vm:r1->vm:r3"), (std::vector<std::string>{"vm", "vm"}));
  EXPECT_EQ(model::flag_row_hosts("links.node_out", "vm:r4"), (std::vector<std::string>{"vm"}));
  // A rank on a shared host has no NIC of its own: a slow rank is no node verdict.
  const auto slow_rank = member_rows(5, [](int i, int j) { return i == 2 || j == 2 ? 0.3 : 1.0; });
  EXPECT_EQ(flags_of(stored_tables(slow_rank, nullptr, std::vector<std::string>(5, "vm"))).rows(), 0u);
  EXPECT_EQ(described(flags_of(stored_tables(slow_rank, nullptr, named_hosts(5)))),
            (std::vector<std::string>{"links.node_out n02", "links.node_in n02"}));
}

TEST(LinksFlags, DrainCountsNodeVerdictsButNeverLinks) {
  Table flags = flag_row("n05", "links.node_out", model::kFlagNotRetested);
  flags.append(flag_row("n01->n02", "links.pair", model::kFlagNotRetested));
  flags.append(flag_row("s1->top", "links.uplink", model::kFlagNotRetested));
  std::vector<std::string> refusals;
  const std::vector<std::string> lines = report::drain_lines(flags, "7", true, refusals);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].rfind("scontrol update NodeName=n05 ", 0), 0u) << lines[0];
  EXPECT_TRUE(refusals.empty());
  EXPECT_EQ(report::count_drain_flags(flags).unretested_flags, 1u);
  EXPECT_EQ(model::flagged_hosts(flags), (std::vector<std::string>{"n05"}));
}

TEST(SwitchTopology, FromPartsRebuildsTheParsedTree) {
  const model::SwitchTopology parsed = model::SwitchTopology::parse(kTwoLeaves, "test");
  std::vector<std::pair<std::string, std::string>> parts;
  for (const std::string& s : parsed.switches()) parts.emplace_back(s, parsed.parent_of(s));
  std::map<std::string, std::string> leaves;
  for (const std::string& h : named_hosts(16)) leaves[h] = parsed.leaf_of(h);
  const model::SwitchTopology rebuilt = model::SwitchTopology::from_parts(parts, leaves, "table /links/switches");
  EXPECT_EQ(rebuilt.switches(), (std::vector<std::string>{"s1", "s2", "top"}));
  EXPECT_EQ(rebuilt.parent_of("s2"), "top");
  EXPECT_EQ(rebuilt.parent_of("top"), "");
  EXPECT_EQ(rebuilt.leaf_of("n03"), "s1");
  EXPECT_EQ(rebuilt.leaf_of("n12"), "s2");
  EXPECT_EQ(rebuilt.uplink_of("s1"), "s1->top");
  EXPECT_EQ(rebuilt.path_between("s1", "s2"), (std::vector<std::string>{"s1", "top", "s2"}));
}

TEST(SwitchTopology, FromPartsRefusesABrokenTreeNamingTheSource) {
  const auto error = [](const std::vector<std::pair<std::string, std::string>>& parts,
                        const std::map<std::string, std::string>& leaves) {
    try {
      (void)model::SwitchTopology::from_parts(parts, leaves, "table /links/switches");
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error({{"s1", "nowhere"}}, {}).find("table /links/switches: the parent 'nowhere'"), std::string::npos)
      << error({{"s1", "nowhere"}}, {});
  EXPECT_NE(error({{"s1", "s2"}, {"s2", "s1"}}, {}).find("own ancestor"), std::string::npos);
  EXPECT_NE(error({{"s1", ""}, {"s1", ""}}, {}).find("listed twice"), std::string::npos);
  EXPECT_NE(error({{"s1", ""}}, {{"n1", "s9"}}).find("the leaf 's9' of host 'n1'"), std::string::npos);
}

TEST(LinksTopology, ScontrolWithoutATreeMeansNoTree) {
  for (const char* text : {"", "No switches found\n", "garbage without keys\n"}) {
    const links::LinksTopology t = links::topology_from_scontrol_text(text, true);
    EXPECT_EQ(t.tree, nullptr) << text;
    EXPECT_EQ(t.source, "no switch tree") << text;
  }
  EXPECT_EQ(links::topology_from_scontrol_text(kTwoLeaves, false).tree, nullptr);  // scontrol failed
  // scontrol lists every host under the top switch too: the leaf is the deepest.
  const links::LinksTopology t = links::topology_from_scontrol_text(
      "SwitchName=s1 Level=0 LinkSpeed=1 Nodes=n[00-07]\nSwitchName=s2 Level=0 LinkSpeed=1 Nodes=n[08-15]\n"
      "SwitchName=top Level=1 LinkSpeed=1 Nodes=n[00-15] Switches=s[1-2]\n",
      true);
  ASSERT_NE(t.tree, nullptr);
  EXPECT_EQ(t.source, "topology: scontrol show topology (2 leaves)");
  EXPECT_EQ(t.tree->leaf_of("n09"), "s2");
}

// A NIC at 90 % of 8 peers that agree to +-2 % is below the spread rule's
// limit, not the fraction's (75 %): the row's threshold is the limit the
// value passed, so a retest that measures 90 % again confirms it (a
// threshold of 75 % x the median would have dismissed it).
TEST(LinksFlags, SpreadRuleNodeVerdictKeepsItsOwnLimit) {
  const auto rows = member_rows(8, [](int i, int j) { return i == 3 || j == 3 ? 0.9 : 1.0; });
  const Table flags = flags_of(stored_tables(rows, nullptr, named_hosts(8)));
  ASSERT_EQ(described(flags), (std::vector<std::string>{"links.node_out n03", "links.node_in n03"}));
  for (std::size_t r = 0; r < 2; ++r) {
    EXPECT_EQ(flags.get_string(r, "rule"), "spread");
    const double value = flags.get_double(r, "value"), median = flags.get_double(r, "median");
    const double threshold = flags.get_double(r, "threshold");
    EXPECT_GT(threshold, value) << "the flagged value is below its own limit";
    EXPECT_LT(threshold, 0.95 * median * 1.0001) << "the spread rule never flags within 5 %";
    EXPECT_GT(threshold, 0.75 * median);
  }
}
