#include "model/LatencyVerdicts.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/FormatText.hpp"
#include "model/FlagRule.hpp"
#include "model/RobustStats.hpp"

namespace bws::model {
namespace {

struct HostLatency {
  bool high = false;
  double reference_s = std::nan("");  // median of the cohort peers' latencies
  double limit_s = std::nan("");
};

// Each host against the median of its cohort peers (itself left out, so a
// delayed host never moves its own reference, which matters at N = 4).
std::vector<HostLatency> judge_hosts(const LinkMapSummary& map, const NodeCohorts& cohorts, const LatencyRule& rule) {
  const std::size_t n = map.hosts.size();
  std::vector<HostLatency> judged(n);
  if (!map.judge_nodes || n < static_cast<std::size_t>(kMinPeersForNodeVerdict) + 1 || map.rows.size() != n)
    return judged;
  std::map<std::string, std::vector<std::size_t>> members;
  for (std::size_t i = 0; i < n; ++i) {
    const double v = map.rows[i].latency_s;
    if (!std::isfinite(v) || v <= 0) continue;
    const auto it = cohorts.find(map.hosts[i]);
    members[it == cohorts.end() ? std::string("unknown hardware") : it->second].push_back(i);
  }
  for (const auto& [label, hosts] : members) {
    if (hosts.size() < static_cast<std::size_t>(kMinCohortForDeficitRule)) continue;
    for (const std::size_t i : hosts) {
      std::vector<double> peers;
      for (const std::size_t j : hosts)
        if (j != i) peers.push_back(map.rows[j].latency_s);
      HostLatency& h = judged[i];
      h.reference_s = median_of(peers);
      h.limit_s = std::max(rule.factor * h.reference_s, h.reference_s + rule.floor_s);
      h.high = map.rows[i].latency_s > h.limit_s;
    }
  }
  return judged;
}

// The leaves a links.uplink verdict names: its subject is the leaf, the
// leaf's uplink "leaf->parent", or the path "leafA->leafB".
std::vector<bool> leaves_with_uplink_verdict(const LinkMapSummary& map, const std::vector<LinkVerdict>& bandwidth) {
  const std::vector<std::string>& names = map.leaves.leaves;
  std::vector<bool> named(names.size(), false);
  for (const LinkVerdict& v : bandwidth) {
    if (v.metric != kLinksUplink) continue;
    for (std::size_t x = 0; x < names.size(); ++x) {
      const std::string tail = "->" + names[x];
      named[x] = named[x] || v.subject == names[x] || v.subject.starts_with(names[x] + "->") ||
                 (v.subject.size() > tail.size() && v.subject.ends_with(tail));
    }
  }
  return named;
}

LatencyVerdict node_verdict(const LinkMapSummary& map, const HostLatency& h, std::size_t i) {
  const double figure = map.rows[i].latency_s;
  LatencyVerdict v{kLinksNodeLatency, map.hosts[i], figure, h.reference_s, h.limit_s, ""};
  v.text = map.hosts[i] + ": median latency " + latency_text(figure) + ", " +
           format_text("%.3g", figure / h.reference_s) + " x the cohort median " + latency_text(h.reference_s);
  return v;
}

// A leaf of kMinHostsForLeafLatency hosts or more, each judged and high.
std::vector<LatencyVerdict> leaf_verdicts(const LinkMapSummary& map, const std::vector<HostLatency>& judged,
                                          const std::vector<bool>& left_out, std::vector<bool>& explained) {
  std::vector<LatencyVerdict> out;
  const std::vector<std::string>& names = map.leaves.leaves;
  if (!map.topology || names.size() < 2 || map.leaves.leaf_of_host.size() != judged.size()) return out;
  for (std::size_t x = 0; x < names.size(); ++x) {
    std::vector<std::size_t> members;
    bool all_high = true;
    for (std::size_t i = 0; i < judged.size(); ++i)
      if (map.leaves.leaf_of_host[i] == static_cast<int>(x)) {
        members.push_back(i);
        all_high = all_high && judged[i].high && !left_out[i];
      }
    if (!all_high || members.size() < kMinHostsForLeafLatency) continue;
    std::vector<double> figures, references, limits;
    for (const std::size_t i : members) {
      figures.push_back(map.rows[i].latency_s), references.push_back(judged[i].reference_s);
      limits.push_back(judged[i].limit_s);
      explained[i] = true;
    }
    const std::string uplink = map.topology->uplink_of(names[x]);
    LatencyVerdict v{kLinksUplinkLatency, uplink.empty() ? names[x] : uplink, median_of(figures),
                     median_of(references), median_of(limits), ""};
    v.text = "uplink of leaf " + names[x] + (uplink.empty() ? "" : " (" + uplink + ")") + ": its " +
             std::to_string(members.size()) + " hosts at median latency " + latency_text(v.measured_s) + ", " +
             format_text("%.3g", v.measured_s / v.expected_s) + " x the cohort median " + latency_text(v.expected_s);
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace

std::string latency_text(double seconds) {
  if (!std::isfinite(seconds)) return "n/a";
  return std::fabs(seconds) >= 1e-3 ? format_text("%.3g ms", seconds * 1e3) : format_text("%.3g us", seconds * 1e6);
}

std::vector<LatencyVerdict> diagnose_latency(const LinkMapSummary& map, const NodeCohorts& cohorts,
                                             const LatencyRule& rule, const std::vector<LinkVerdict>& bandwidth) {
  const std::size_t n = map.hosts.size();
  const std::vector<HostLatency> judged = judge_hosts(map, cohorts, rule);
  // Hosts a bandwidth verdict explains: their own, or their leaf's uplink.
  std::vector<bool> left_out(n, false);
  for (const LinkVerdict& v : bandwidth)
    if (v.metric == kLinksNodeOut || v.metric == kLinksNodeIn)
      for (std::size_t i = 0; i < n; ++i) left_out[i] = left_out[i] || map.hosts[i] == v.subject;
  if (map.topology && map.leaves.leaf_of_host.size() == n) {
    const std::vector<bool> named = leaves_with_uplink_verdict(map, bandwidth);
    for (std::size_t i = 0; i < n; ++i) {
      const int leaf = map.leaves.leaf_of_host[i];
      left_out[i] = left_out[i] || (leaf >= 0 && named[static_cast<std::size_t>(leaf)]);
    }
  }
  std::vector<bool> explained(n, false);
  const std::vector<LatencyVerdict> uplinks = leaf_verdicts(map, judged, left_out, explained);
  std::vector<LatencyVerdict> verdicts;
  for (std::size_t i = 0; i < n && i < judged.size(); ++i)
    if (judged[i].high && !left_out[i] && !explained[i]) verdicts.push_back(node_verdict(map, judged[i], i));
  verdicts.insert(verdicts.end(), uplinks.begin(), uplinks.end());
  return verdicts;
}

}  // namespace bws::model
