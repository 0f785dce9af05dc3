// lib/model/LinkVerdicts: the diagnosis of a pairwise link map on synthetic
// matrices with one injected fault each (a slow NIC, a slow pair, a slow
// uplink) and a fixed-seed +-3 % noise. The expected verdicts are the
// injected faults, written by hand; the fractions are the injected factors
// within the noise.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "model/LinkRows.hpp"
#include "model/LinkVerdicts.hpp"
#include "model/SwitchTopology.hpp"

using namespace bws::model;

namespace {

constexpr double kLinkBps = 10e9;
constexpr double kNoise = 0.03;

std::string host_name(int i) { return (i < 10 ? "n0" : "n") + std::to_string(i); }

// factor(i, j): the injected slowdown of messages i -> j (1: none).
using Faults = std::function<double(int, int)>;

struct Matrices {
  std::vector<std::string> hosts;
  std::vector<std::vector<double>> send, recv;  // send[i][j]: i -> j at i; recv[j][i]: i -> j at j
};

Matrices make_matrices(int n, const Faults& factor, unsigned seed = 12345) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> noise(1 - kNoise, 1 + kNoise);
  Matrices m;
  m.send.assign(n, std::vector<double>(n, std::nan("")));
  m.recv = m.send;
  for (int i = 0; i < n; ++i) m.hosts.push_back(host_name(i));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (i == j) continue;
      const double link = kLinkBps * factor(i, j);
      m.send[i][j] = link * noise(generator);
      m.recv[j][i] = link * noise(generator);
    }
  return m;
}

// What rank 0 would hold: every row reduced where it was measured.
std::vector<LinkVerdict> diagnose(const Matrices& m, const SwitchTopology* topology = nullptr,
                                  const NodeCohorts& cohorts = {}, bool judge_nodes = true) {
  LinkMapSummary map;
  map.judge_nodes = judge_nodes;
  map.hosts = m.hosts;
  for (std::size_t i = 0; i < m.hosts.size(); ++i)
    map.rows.push_back(summarize_links_row(m.send[i], m.recv[i], static_cast<int>(i)));
  if (topology) {
    map.topology = topology;
    map.leaves = host_leaves(*topology, m.hosts);
    for (std::size_t i = 0; i < m.hosts.size(); ++i)
      map.leaf_medians.push_back(
          per_leaf_medians(m.send[i], static_cast<int>(i), map.leaves.leaf_of_host, map.leaves.leaves.size()));
  }
  return diagnose_links(map, cohorts, FlagRule{});
}

std::vector<std::string> described(const std::vector<LinkVerdict>& verdicts) {
  std::vector<std::string> out;
  for (const LinkVerdict& v : verdicts) out.push_back(v.metric + " " + v.subject);
  return out;
}

void expect_fraction_near(const LinkVerdict& v, double injected) {
  EXPECT_NEAR(v.fraction, injected, 0.05) << v.text;
  EXPECT_NEAR(v.measured_Bps / v.expected_Bps, v.fraction, 1e-12);
}

const int kSizes[] = {4, 7, 16, 64};

// Two leaves of 8 hosts (n00-n07, n08-n15) under one top switch.
const char* const kTwoLeaves =
    "SwitchName=s1 Nodes=n[00-07]\nSwitchName=s2 Nodes=n[08-15]\nSwitchName=top Switches=s[1-2]\n";

int leaf_of_two(int i) { return i < 8 ? 0 : 1; }

}  // namespace

TEST(LinkRows, SummaryIsTheMediansAndTheLowPeersLowestFirst) {
  const double nan = std::nan("");
  // Peers 10, 20, 30, 4, NaN: median 15; below 0.75 * 15 = 11.25: 4 (peer 4), 10 (peer 1).
  const std::vector<double> send{nan, 10, 20, 30, 4, nan};
  const std::vector<double> recv{nan, 8, 8, 2, 8, 8};  // median 8; below 6: peer 3
  const LinkRowSummary s = summarize_links_row(send, recv, 0);
  EXPECT_DOUBLE_EQ(s.out_Bps, 15);
  EXPECT_DOUBLE_EQ(s.in_Bps, 8);
  ASSERT_EQ(s.low_out.size(), 2u);
  EXPECT_EQ(s.low_out[0].peer, 4);
  EXPECT_DOUBLE_EQ(s.low_out[0].Bps, 4);
  EXPECT_EQ(s.low_out[1].peer, 1);
  ASSERT_EQ(s.low_in.size(), 1u);
  EXPECT_EQ(s.low_in[0].peer, 3);
  const LinkRowSummary no_recv = summarize_links_row(send, {}, 0);
  EXPECT_TRUE(std::isnan(no_recv.in_Bps));
  EXPECT_TRUE(no_recv.low_in.empty());
}

TEST(LinkRows, LowPeerListIsCapped) {
  std::vector<double> send(101, 1.0);
  for (int j = 1; j <= 40; ++j) send[j] = 0.1;  // 40 low peers, median 1
  const LinkRowSummary s = summarize_links_row(send, {}, 0);
  EXPECT_EQ(s.low_out_count, 40u);
  EXPECT_EQ(s.low_out.size(), kMaxLowPeersPerNode);
}

TEST(LinkRows, PerLeafMediansSkipSelfAndUnknownHosts) {
  const std::vector<int> leaf_of_host{0, 0, 1, 1, -1};
  const std::vector<double> send{1000, 10, 20, 40, 99};
  EXPECT_EQ(per_leaf_medians(send, 0, leaf_of_host, 2), (std::vector<double>{10, 40}));  // 40: the upper of 20, 40
  const std::vector<double> at_two = per_leaf_medians(send, 2, leaf_of_host, 3);
  EXPECT_DOUBLE_EQ(at_two[0], 1000);  // the upper of 10 and 1000
  EXPECT_DOUBLE_EQ(at_two[1], 40);
  EXPECT_TRUE(std::isnan(at_two[2]));
  // Odd counts: the middle one.
  const std::vector<int> three{0, 1, 1, 1};
  EXPECT_DOUBLE_EQ(per_leaf_medians(std::vector<double>{0, 5, 1, 9}, 0, three, 2)[1], 5);
}

TEST(LinkVerdicts, ASlowNicInALeafOfTwoIsNoUplink) {
  // The pretend cluster: n00 n01 on s1, n02 n03 on s2, n02's NIC at 25 %
  // both ways. s1's hosts send to s2 at 25 % (n02) and 100 % (n03): one
  // slow host of two is a NIC, not the uplink, which would slow both.
  const SwitchTopology topology = SwitchTopology::parse(
      "SwitchName=s1 Nodes=n[00-01]\nSwitchName=s2 Nodes=n[02-03]\nSwitchName=top Switches=s[1-2]\n", "test");
  const auto verdicts =
      diagnose(make_matrices(4, [](int i, int j) { return i == 2 || j == 2 ? 0.25 : 1.0; }), &topology);
  EXPECT_EQ(described(verdicts), (std::vector<std::string>{"links.node_out n02", "links.node_in n02"}));
  // Both of s2's hosts slow from s1: the uplink, and no node.
  const auto uplink = diagnose(
      make_matrices(4, [](int i, int j) { return (i < 2) != (j < 2) ? 0.25 : 1.0; }), &topology);
  EXPECT_EQ(described(uplink), (std::vector<std::string>{"links.uplink s1->s2", "links.uplink s2->s1"}));
}

TEST(LinkVerdicts, CleanMatrixGivesNothing) {
  for (int n : kSizes) EXPECT_TRUE(diagnose(make_matrices(n, [](int, int) { return 1.0; })).empty()) << n;
}

TEST(LinkVerdicts, SlowNicIsOneNodeOutAndInNothingElse) {
  for (int n : kSizes) {
    const int slow = n > 5 ? 5 : 1;  // n05, or n01 at N = 4
    const auto verdicts = diagnose(make_matrices(n, [&](int i, int j) { return i == slow || j == slow ? 0.4 : 1.0; }));
    ASSERT_EQ(described(verdicts),
              (std::vector<std::string>{"links.node_out " + host_name(slow), "links.node_in " + host_name(slow)}))
        << n;
    for (const LinkVerdict& v : verdicts) expect_fraction_near(v, 0.4);
    EXPECT_EQ(verdicts[0].text.rfind(host_name(slow) + ": out ", 0), 0u) << verdicts[0].text;
    EXPECT_NE(verdicts[0].text.find("%, in "), std::string::npos) << verdicts[0].text;
    EXPECT_NE(verdicts[0].text.find(" % of cohort median"), std::string::npos) << verdicts[0].text;
  }
}

TEST(LinkVerdicts, MembersSharingAHostGetPairVerdictsButNoNodeVerdict) {
  const auto slow_nic = make_matrices(8, [](int i, int j) { return i == 5 || j == 5 ? 0.4 : 1.0; });
  EXPECT_TRUE(diagnose(slow_nic, nullptr, {}, false).empty());
  const auto slow_pair = make_matrices(8, [](int i, int j) { return i == 2 && j == 6 ? 0.1 : 1.0; });
  EXPECT_EQ(described(diagnose(slow_pair, nullptr, {}, false)),
            (std::vector<std::string>{"links.pair " + host_name(2) + "->" + host_name(6)}));
}

// A stall of a whole round of the link map's schedule (model/PairRounds)
// lowers its pairs at once: a transient, not links. Below half the nodes,
// the pairs are named. Round 3 of 8 members, by hand: 0-6, 1-5, 2-4, 3-7.
namespace {
bool in_round_3_of_8(int i, int j) {
  const int low = std::min(i, j), high = std::max(i, j);
  return (low == 3 && high == 7) || (low != 3 && low + high == 6);
}
}  // namespace

TEST(LinkVerdicts, ASlowRoundIsNoPairVerdictAFewSlowPairsOfOneRoundAre) {
  const auto round3 = make_matrices(8, [](int i, int j) { return in_round_3_of_8(i, j) ? 0.1 : 1.0; });
  EXPECT_TRUE(diagnose(round3).empty());
  // One direction of the round (the lower member's sends): 4 of 8, half the nodes.
  const auto half_of_round3 = make_matrices(8, [](int i, int j) { return in_round_3_of_8(i, j) && i < j ? 0.1 : 1.0; });
  EXPECT_TRUE(diagnose(half_of_round3).empty());
  const auto three_of_round3 =
      make_matrices(8, [](int i, int j) { return in_round_3_of_8(i, j) && i < j && i < 3 ? 0.1 : 1.0; });
  EXPECT_EQ(described(diagnose(three_of_round3)),
            (std::vector<std::string>{"links.pair " + host_name(0) + "->" + host_name(6),
                                      "links.pair " + host_name(1) + "->" + host_name(5),
                                      "links.pair " + host_name(2) + "->" + host_name(4)}));
  // Three nodes, round 1 stalled: its one pair, 0-2 (1 sits out), both ways.
  const auto three_nodes = make_matrices(3, [](int i, int j) { return i + j == 2 && i != 1 ? 0.05 : 1.0; });
  EXPECT_TRUE(diagnose(three_nodes).empty());
  // A pair far below its slow round's other pairs is still named.
  const auto pair_in_slow_round = make_matrices(8, [](int i, int j) {
    if (!in_round_3_of_8(i, j)) return 1.0;
    return i == 6 ? 0.001 : 0.1;
  });
  EXPECT_EQ(described(diagnose(pair_in_slow_round)),
            (std::vector<std::string>{"links.pair " + host_name(6) + "->" + host_name(0)}));
  const auto one_pair_of_three = make_matrices(3, [](int i, int j) { return i == 0 && j == 2 ? 0.05 : 1.0; });
  EXPECT_EQ(described(diagnose(one_pair_of_three)),
            (std::vector<std::string>{"links.pair " + host_name(0) + "->" + host_name(2)}));
}

TEST(LinkVerdicts, SlowPairIsThatPairOnly) {
  for (int n : kSizes) {
    const int to = n > 9 ? 9 : n - 1;  // 2 -> 9, or 2 -> the last host
    const auto verdicts = diagnose(make_matrices(n, [&](int i, int j) { return i == 2 && j == to ? 0.3 : 1.0; }));
    ASSERT_EQ(described(verdicts), (std::vector<std::string>{"links.pair n02->" + host_name(to)})) << n;
    expect_fraction_near(verdicts[0], 0.3);
    EXPECT_NE(verdicts[0].text.find("receive at"), std::string::npos) << verdicts[0].text;
  }
}

TEST(LinkVerdicts, PairIsJudgedFromTheSenderAloneWithoutReceives) {
  const Matrices m = make_matrices(16, [](int i, int j) { return i == 2 && j == 9 ? 0.3 : 1.0; });
  LinkMapSummary map;
  map.hosts = m.hosts;
  for (int i = 0; i < 16; ++i) map.rows.push_back(summarize_links_row(m.send[i], {}, i));
  EXPECT_EQ(described(diagnose_links(map, {}, FlagRule{})), (std::vector<std::string>{"links.pair n02->n09"}));
}

TEST(LinkVerdicts, SlowBlockBetweenTwoLeavesIsOneUplinkVerdictPerDirection) {
  // All pairs between s1 and s2 at 45 %: every node's median is the same
  // (no node verdict), no pair is low against its node's median; the two
  // blocks s1->s2 and s2->s1 are at 45 % of the within-leaf blocks.
  const SwitchTopology topology = SwitchTopology::parse(kTwoLeaves, "test");
  const auto verdicts = diagnose(
      make_matrices(16, [](int i, int j) { return leaf_of_two(i) != leaf_of_two(j) ? 0.45 : 1.0; }), &topology);
  ASSERT_EQ(described(verdicts), (std::vector<std::string>{"links.uplink s1->s2", "links.uplink s2->s1"}));
  for (const LinkVerdict& v : verdicts) expect_fraction_near(v, 0.45);
  EXPECT_EQ(verdicts[0].text.rfind("uplinks between leaf s1 and leaf s2 (s1->top->s2): s1->s2 pairs at ", 0), 0u)
      << verdicts[0].text;
}

TEST(LinkVerdicts, OneLeafsSlowUplinkAmongThreeIsNamedOnce) {
  // 18 hosts, leaves of 6; everything into and out of s1 at 40 %. The
  // hosts of s1 are slow against the cohort, but normal within their leaf:
  // the uplink explains them, and the pairs.
  const SwitchTopology topology = SwitchTopology::parse(
      "SwitchName=s1 Nodes=n[00-05]\nSwitchName=s2 Nodes=n[06-11]\nSwitchName=s3 Nodes=n[12-17]\n"
      "SwitchName=top Switches=s[1-3]\n",
      "test");
  const auto verdicts =
      diagnose(make_matrices(18, [](int i, int j) { return (i < 6) != (j < 6) ? 0.4 : 1.0; }), &topology);
  ASSERT_EQ(described(verdicts), (std::vector<std::string>{"links.uplink s1->top"}));
  expect_fraction_near(verdicts[0], 0.4);
  EXPECT_EQ(verdicts[0].text.rfind("uplink of leaf s1 (s1->top): s1->other leaves at ", 0), 0u) << verdicts[0].text;
  EXPECT_NE(verdicts[0].text.find(", other leaves->s1 at "), std::string::npos) << verdicts[0].text;
}

TEST(LinkVerdicts, WithATreeSlowNicAndSlowPairStayNodeAndPair) {
  const SwitchTopology topology = SwitchTopology::parse(kTwoLeaves, "test");
  const auto nic = diagnose(make_matrices(16, [](int i, int j) { return i == 5 || j == 5 ? 0.4 : 1.0; }), &topology);
  EXPECT_EQ(described(nic), (std::vector<std::string>{"links.node_out n05", "links.node_in n05"}));
  const auto pair = diagnose(make_matrices(16, [](int i, int j) { return i == 2 && j == 9 ? 0.3 : 1.0; }), &topology);
  EXPECT_EQ(described(pair), (std::vector<std::string>{"links.pair n02->n09"}));
  EXPECT_TRUE(diagnose(make_matrices(16, [](int, int) { return 1.0; }), &topology).empty());
}

TEST(LinkVerdicts, HostsOutsideTheTreeGetNoUplinkVerdict) {
  // Only n00-n07 are listed (one leaf): no block between two leaves exists.
  const SwitchTopology topology = SwitchTopology::parse("SwitchName=s1 Nodes=n[00-07]\n", "test");
  const auto verdicts =
      diagnose(make_matrices(16, [](int i, int j) { return (i < 8) != (j < 8) ? 0.45 : 1.0; }), &topology);
  for (const LinkVerdict& v : verdicts) EXPECT_NE(v.metric, kLinksUplink) << v.text;
}

TEST(LinkVerdicts, TwoNodesHaveNoReferenceSoNothingIsJudged) {
  // One value per direction: each node's median is that value.
  EXPECT_TRUE(diagnose(make_matrices(2, [](int i, int j) { return i == 1 || j == 1 ? 0.4 : 1.0; })).empty());
  EXPECT_TRUE(diagnose(make_matrices(2, [](int i, int j) { return i == 0 && j == 1 ? 0.3 : 1.0; })).empty());
}

TEST(LinkVerdicts, ThreeNodesGiveNoNodeVerdictButAPairVerdict) {
  // A slow n00: its medians are 40 %, the others' 70 %: with 2 peers a node
  // verdict is not judged; n01 -> n00 is low for n01 but not for n00 (its
  // receives are all 40 %): nothing.
  EXPECT_TRUE(diagnose(make_matrices(3, [](int i, int j) { return i == 0 || j == 0 ? 0.4 : 1.0; })).empty());
  // n00 -> n01 at 30 %: n00's median send is 65 %, n01's median receive
  // 65 %; 30 % is below 0.75 * 65 % for both.
  const auto verdicts = diagnose(make_matrices(3, [](int i, int j) { return i == 0 && j == 1 ? 0.3 : 1.0; }));
  ASSERT_EQ(described(verdicts), (std::vector<std::string>{"links.pair n00->n01"}));
  EXPECT_NEAR(verdicts[0].fraction, 0.3 / 0.65, 0.05);
}

TEST(LinkVerdicts, NodesAreJudgedWithinTheirHardwareCohort) {
  // n00-n03 are another class whose NICs run at half speed: against all 16
  // they are slow (50 % of the others' medians), within their cohort they
  // are normal. Pairs into them are low for the sender only (their own
  // receives are all at 50 %): no pair verdict either.
  const Faults fat = [](int i, int j) { return i < 4 || j < 4 ? 0.5 : 1.0; };
  NodeCohorts cohorts;
  for (int i = 0; i < 16; ++i) cohorts[host_name(i)] = i < 4 ? "fat" : "thin";
  EXPECT_TRUE(diagnose(make_matrices(16, fat), nullptr, cohorts).empty());
  const auto one_cohort = diagnose(make_matrices(16, fat));
  EXPECT_EQ(one_cohort.size(), 8u);  // out and in of n00-n03
  for (const LinkVerdict& v : one_cohort) EXPECT_LT(v.subject, "n04") << v.text;
}

TEST(LinkVerdicts, NicSlowOnlyWhenSendingIsNodeOutOnly) {
  const auto verdicts = diagnose(make_matrices(16, [](int i, int) { return i == 5 ? 0.4 : 1.0; }));
  ASSERT_EQ(described(verdicts), (std::vector<std::string>{"links.node_out n05"}));
  expect_fraction_near(verdicts[0], 0.4);
  EXPECT_EQ(verdicts[0].text.rfind("n05: out ", 0), 0u) << verdicts[0].text;
  EXPECT_NE(verdicts[0].text.find(" %, in "), std::string::npos) << verdicts[0].text;  // in: normal
}

TEST(LinkVerdicts, WithoutReceivesTheNodeTextGivesOutOnly) {
  const Matrices m = make_matrices(16, [](int i, int j) { return i == 5 || j == 5 ? 0.4 : 1.0; });
  LinkMapSummary map;
  map.hosts = m.hosts;
  for (int i = 0; i < 16; ++i) map.rows.push_back(summarize_links_row(m.send[i], {}, i));
  const auto verdicts = diagnose_links(map, {}, FlagRule{});
  ASSERT_EQ(described(verdicts), (std::vector<std::string>{"links.node_out n05"}));
  EXPECT_EQ(verdicts[0].text.find(" in "), std::string::npos) << verdicts[0].text;
  EXPECT_EQ(verdicts[0].text.rfind("n05: out ", 0), 0u) << verdicts[0].text;
}

TEST(LinkVerdicts, PairsAcrossASlowUplinkAreExplainedPairsWithinALeafAreNot) {
  // The blocks between s1 and s2 at 45 %, and two pairs at 20 %: n02->n05
  // (both in s1) stays a pair verdict; n02->n09 (s1 to s2) lies on the
  // slow uplink and is not named again.
  const SwitchTopology topology = SwitchTopology::parse(kTwoLeaves, "test");
  const auto verdicts = diagnose(make_matrices(16,
                                               [](int i, int j) {
                                                 if (i == 2 && (j == 5 || j == 9)) return 0.2;
                                                 return leaf_of_two(i) != leaf_of_two(j) ? 0.45 : 1.0;
                                               }),
                                 &topology);
  ASSERT_EQ(described(verdicts),
            (std::vector<std::string>{"links.uplink s1->s2", "links.uplink s2->s1", "links.pair n02->n05"}));
  expect_fraction_near(verdicts[2], 0.2 / 0.45);  // against n02's median send, 45 % of the link speed
}
