#include "model/LinkVerdicts.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "model/PairRounds.hpp"
#include "model/RobustStats.hpp"
#include "model/UplinkVerdicts.hpp"

namespace bws::model {
namespace {

// A node's cohort judgement, per direction.
struct NodeJudgement {
  bool out = false, in = false;
  double out_reference = std::nan(""), in_reference = std::nan("");
  double out_limit = std::nan(""), in_limit = std::nan("");  // the cohort rule's own limit
  bool flagged() const { return out || in; }
};

// Each direction's medians judged within the hardware cohorts.
std::vector<NodeJudgement> judge_nodes(const LinkMapSummary& map, const NodeCohorts& cohorts, const FlagRule& rule) {
  const std::size_t n = map.hosts.size();
  std::vector<NodeJudgement> judged(n);
  if (!map.judge_nodes || n < static_cast<std::size_t>(kMinPeersForNodeVerdict) + 1 || map.rows.size() != n)
    return judged;
  std::map<std::string, std::vector<std::size_t>> members;
  for (std::size_t i = 0; i < n; ++i) {
    const auto it = cohorts.find(map.hosts[i]);
    members[it == cohorts.end() ? std::string("unknown hardware") : it->second].push_back(i);
  }
  for (const auto& [label, hosts] : members)
    for (const bool out : {true, false}) {
      std::vector<std::size_t> index;
      std::vector<double> values;
      for (std::size_t i : hosts) {
        const double v = out ? map.rows[i].out_Bps : map.rows[i].in_Bps;
        if (std::isfinite(v) && v > 0) index.push_back(i), values.push_back(v);
      }
      const std::vector<CohortVerdict> verdicts = judge_cohort(values, true, rule);
      for (std::size_t k = 0; k < index.size(); ++k) {
        NodeJudgement& j = judged[index[k]];
        (out ? j.out : j.in) = verdicts[k].flagged();
        (out ? j.out_reference : j.in_reference) = verdicts[k].peer_median;
        // The limit of the rule that flagged it: a retest meets the same rule.
        const CohortVerdict& v = verdicts[k];
        (out ? j.out_limit : j.in_limit) = v.hit == FlagRuleHit::Spread ? v.spread_limit : v.fraction_limit;
      }
    }
  return judged;
}

// The node is normal within its own leaf: its median send to its leaf
// mates reaches fraction * the leaf's within-leaf block.
bool normal_within_leaf(const LinkMapSummary& map, const UplinkJudgement& uplinks, std::size_t i,
                        const FlagRule& rule) {
  const int a = map.leaves.leaf_of_host[i];
  if (a < 0 || !uplinks.leaf_blamed[static_cast<std::size_t>(a)] || i >= map.leaf_medians.size()) return false;
  const auto leaf = static_cast<std::size_t>(a);
  if (map.leaf_medians[i].size() <= leaf) return false;
  const double own = map.leaf_medians[i][leaf], home = uplinks.blocks[leaf][leaf];
  return std::isfinite(own) && std::isfinite(home) && own >= rule.fraction * home;
}

std::vector<LinkVerdict> node_verdicts(const LinkMapSummary& map, const std::vector<NodeJudgement>& judged,
                                       const std::vector<bool>& standing) {
  std::vector<LinkVerdict> out;
  for (std::size_t i = 0; i < judged.size(); ++i) {
    if (!standing[i]) continue;
    const LinkRowSummary& r = map.rows[i];
    const NodeJudgement& j = judged[i];
    // Both directions where both were judged (one may be missing).
    const double out_fraction = r.out_Bps / j.out_reference, in_fraction = r.in_Bps / j.in_reference;
    std::string text = map.hosts[i] + ":";
    if (std::isfinite(out_fraction)) text += " out " + verdict_percent(out_fraction);
    if (std::isfinite(out_fraction) && std::isfinite(in_fraction)) text += ",";
    if (std::isfinite(in_fraction)) text += " in " + verdict_percent(in_fraction);
    text += " of cohort median";
    if (j.out) out.push_back({kLinksNodeOut, map.hosts[i], r.out_Bps, j.out_reference, out_fraction, text, j.out_limit});
    if (j.in) out.push_back({kLinksNodeIn, map.hosts[i], r.in_Bps, j.in_reference, in_fraction, text, j.in_limit});
  }
  return out;
}

std::vector<LinkVerdict> pair_verdicts(const LinkMapSummary& map, const std::vector<bool>& standing,
                                       const UplinkJudgement& uplinks, const FlagRule& rule) {
  const std::size_t n = map.hosts.size();
  std::vector<std::pair<std::pair<std::size_t, std::size_t>, LinkVerdict>> found;
  for (std::size_t i = 0; i < n; ++i) {
    if (standing[i]) continue;
    const LinkRowSummary& from = map.rows[i];
    for (const LowPeer& low : from.low_out) {
      if (low.peer < 0 || static_cast<std::size_t>(low.peer) >= n || static_cast<std::size_t>(low.peer) == i) continue;
      const auto j = static_cast<std::size_t>(low.peer);
      // The lists were cut at the measuring node's low fraction; the rule
      // given here (a recompute with another --flags.fraction) decides.
      if (standing[j] || !(low.Bps < rule.fraction * from.out_Bps)) continue;
      const LinkRowSummary& to = map.rows[j];
      // The receiver's view, where it measured receives: i among its low senders.
      const LowPeer* seen = nullptr;
      for (const LowPeer& p : to.low_in)
        if (p.peer == static_cast<int>(i)) seen = &p;
      if (std::isfinite(to.in_Bps) && !(seen && seen->Bps < rule.fraction * to.in_Bps)) continue;
      if (!uplinks.explained.empty() && i < map.leaves.leaf_of_host.size() && j < map.leaves.leaf_of_host.size()) {
        const int a = map.leaves.leaf_of_host[i], b = map.leaves.leaf_of_host[j];
        if (a >= 0 && b >= 0 && uplinks.explained[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)]) continue;
      }
      const std::string subject = map.hosts[i] + "->" + map.hosts[j];
      LinkVerdict v{kLinksPair, subject, low.Bps, from.out_Bps, low.Bps / from.out_Bps, ""};
      v.text =
          "link " + subject + ": send at " + verdict_percent(v.fraction) + " of " + map.hosts[i] + "'s median send";
      if (seen)
        v.text +=
            ", receive at " + verdict_percent(seen->Bps / to.in_Bps) + " of " + map.hosts[j] + "'s median receive";
      found.push_back({{i, j}, std::move(v)});
    }
  }
  // A slow round, not slow links: the link map measures its pairs in
  // rounds of disjoint pairs (model/PairRounds), all pairs of a round at
  // once, so a stall of the whole round (congestion of the network, other
  // jobs' traffic) lowers the round's pairs together, while a bad link
  // lowers one. A round where half the nodes or more (at least 2) have a
  // low pair is a slow round.
  // Within a slow round a pair far below the round's other low pairs
  // (fraction x their median) is still named: the round's stall does not
  // explain it.
  const auto round_of = [n](const auto& f) {
    return round_of_pair(static_cast<int>(f.first.first), static_cast<int>(f.first.second), static_cast<int>(n));
  };
  std::map<int, std::vector<double>> low_in_round;
  for (const auto& f : found) low_in_round[round_of(f)].push_back(f.second.measured_Bps);
  const auto slow_round = [&](const auto& f) {
    const std::vector<double>& lows = low_in_round[round_of(f)];
    return lows.size() >= kMinPairsForSlowRound && 2 * lows.size() >= n &&
           !(f.second.measured_Bps < rule.fraction * median_of(lows));
  };
  found.erase(std::remove_if(found.begin(), found.end(), slow_round), found.end());
  std::stable_sort(found.begin(), found.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<LinkVerdict> out;
  for (auto& f : found) out.push_back(std::move(f.second));
  return out;
}

}  // namespace

std::vector<LinkVerdict> diagnose_links(const LinkMapSummary& map, const NodeCohorts& cohorts, const FlagRule& rule) {
  const std::size_t n = map.hosts.size();
  if (map.rows.size() != n) return {};
  const std::vector<NodeJudgement> judged = judge_nodes(map, cohorts, rule);
  const bool tree = map.topology && map.leaves.leaf_of_host.size() == n && map.leaf_medians.size() == n;
  // First pass with every node: which leaves have a slow uplink. A node
  // slow only across that uplink (normal within its leaf) is explained by it.
  std::vector<bool> standing(n, false);
  const UplinkJudgement first = tree ? judge_uplinks(map, standing, rule) : UplinkJudgement{};
  for (std::size_t i = 0; i < n; ++i)
    standing[i] = judged[i].flagged() && !(tree && normal_within_leaf(map, first, i, rule));
  // Second pass without the nodes that stand: they are not uplink evidence.
  const UplinkJudgement uplinks = tree ? judge_uplinks(map, standing, rule) : UplinkJudgement{};

  std::vector<LinkVerdict> verdicts = node_verdicts(map, judged, standing);
  verdicts.insert(verdicts.end(), uplinks.verdicts.begin(), uplinks.verdicts.end());
  const std::vector<LinkVerdict> pairs = pair_verdicts(map, standing, uplinks, rule);
  verdicts.insert(verdicts.end(), pairs.begin(), pairs.end());
  return verdicts;
}

}  // namespace bws::model
