#pragma once
// The diagnosis of a pairwise link map: which node's NIC or host, which
// link, which switch uplink is slow, from the per-node reductions of
// model/LinkRows.hpp (never the N x N matrix). Judged with the rule and
// cohorts of the node flags (model/FlagRule.hpp, model/Cohorts.hpp).
//   links.node_out / links.node_in: a node's median send (receive)
//     bandwidth low against its cohort (rule as the node flags; needs 3
//     peers per node, N >= 4: with 2 peers a node's median is the mean of
//     its two values, and one slow link would move it halfway). One verdict
//     per low direction; both texts give both figures.
//   links.uplink: with a switch tree, per ordered pair of leaves (A,B) the
//     block median (median over A's hosts of their median send to B's
//     hosts) is judged against all blocks, the within-leaf ones included
//     (with 2 leaves they are the only reference: a tree oversubscribed
//     beyond 1/fraction then reads as slow uplinks). A leaf whose every
//     block out of it (or into it) is low, with 2 or more such blocks, has
//     a slow uplink: one verdict, subject "leaf->parent". Other low blocks
//     are one verdict each, subject "A->B" (the path between the leaves: with
//     2 leaves A's uplink and B's cannot be told apart). Nodes with a node
//     verdict are left out of the blocks; a node verdict is withdrawn when
//     its leaf has an uplink verdict and the node is normal within its leaf.
//   links.pair: i -> j below fraction * i's median send, confirmed by j
//     (i is among j's low receives) when j measured receives; neither i nor j
//     has a node verdict; the leaves' block has no uplink verdict; and not
//     one of a slow round: when half the nodes or more (at least
//     kMinPairsForSlowRound) have such a pair in one round of the link
//     map's schedule (model/PairRounds: the pairs measured at once), the
//     round was slow as a whole, a transient, and only its pairs below
//     fraction * the median of its low pairs are named.
// N = 2 gives nothing (one value per direction, no reference); N = 3 gives
// pair verdicts but no node verdicts. Pure.
#include <cmath>
#include <string>
#include <vector>

#include "model/Cohorts.hpp"
#include "model/FlagRule.hpp"
#include "model/LinkRows.hpp"
#include "model/SwitchTopology.hpp"

namespace bws::model {

inline constexpr const char* kLinksNodeOut = "links.node_out";
inline constexpr const char* kLinksNodeIn = "links.node_in";
inline constexpr const char* kLinksPair = "links.pair";
inline constexpr const char* kLinksUplink = "links.uplink";
// The latency verdicts (model/LatencyVerdicts.hpp): a host, or a leaf's
// uplink, whose pairs' 8-byte latency is well above the others'.
inline constexpr const char* kLinksNodeLatency = "links.node_latency";
inline constexpr const char* kLinksUplinkLatency = "links.uplink_latency";

// Peers a node needs for a node verdict (see above).
inline constexpr int kMinPeersForNodeVerdict = 3;
// Low pairs of one round that, with half the nodes or more, make a slow round.
inline constexpr std::size_t kMinPairsForSlowRound = 2;
// Leaf blocks out of (into) a leaf needed to blame its uplink alone.
inline constexpr int kMinBlocksForLeafUplink = 2;

struct LinkVerdict {
  std::string metric;       // kLinksNodeOut, kLinksNodeIn, kLinksPair, kLinksUplink
  std::string subject;      // a host, "hostA->hostB", "leaf->parent" or "leafA->leafB"
  double measured_Bps = 0;  // the node's median, the pair's send, the blocks' median
  double expected_Bps = 0;  // the reference: cohort peers' median, the node's median, the median block
  double fraction = 0;      // measured / expected
  std::string text;         // one line for a person: "n17: out 42 %, in 45 % of cohort median"
  // Node verdicts: the limit of the cohort rule that flagged it (the spread
  // rule's sits above fraction x expected), which a retest must still be
  // below; NaN for the others, whose limit is fraction x expected.
  double limit_Bps = std::nan("");
};

// What rank 0 holds of a link map.
struct LinkMapSummary {
  std::vector<std::string> hosts;                 // the matrices' host order
  std::vector<LinkRowSummary> rows;               // per host
  const SwitchTopology* topology = nullptr;       // null: node and pair verdicts only
  HostLeaves leaves;                              // host_leaves(*topology, hosts)
  std::vector<std::vector<double>> leaf_medians;  // per host: per_leaf_medians of its row (N x S)
  // False when the members share hosts (a run on one host, each rank
  // standing for a node): a rank has no NIC of its own, and its figures
  // differ from its peers' by where the scheduler put it, so no node
  // verdict is given; pair verdicts still are.
  bool judge_nodes = true;
};

// Node verdicts (host order, out before in), then uplink verdicts (leaf
// verdicts in leaf order, then blocks in order), then pair verdicts (by
// sender, then receiver, in host order). Hosts missing from `cohorts` form
// one cohort.
std::vector<LinkVerdict> diagnose_links(const LinkMapSummary& map, const NodeCohorts& cohorts, const FlagRule& rule);

}  // namespace bws::model
