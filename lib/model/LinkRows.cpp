#include "model/LinkRows.hpp"

#include <algorithm>

#include "model/RobustStats.hpp"

namespace bws::model {
namespace {

// The finite values of row `values` without `self`.
std::vector<double> peers_of(std::span<const double> values, int self) {
  std::vector<double> out;
  out.reserve(values.size());
  for (std::size_t j = 0; j < values.size(); ++j)
    if (static_cast<int>(j) != self && std::isfinite(values[j])) out.push_back(values[j]);
  return out;
}

// Peers below limit, the lowest first, at most kMaxLowPeersPerNode; `count`
// gets how many there were.
std::vector<LowPeer> low_peers(std::span<const double> values, int self, double limit, std::size_t& count) {
  std::vector<LowPeer> low;
  for (std::size_t j = 0; j < values.size(); ++j)
    if (static_cast<int>(j) != self && std::isfinite(values[j]) && values[j] < limit)
      low.push_back({static_cast<int>(j), values[j]});
  count = low.size();
  std::stable_sort(low.begin(), low.end(), [](const LowPeer& a, const LowPeer& b) { return a.Bps < b.Bps; });
  if (low.size() > kMaxLowPeersPerNode) low.resize(kMaxLowPeersPerNode);
  return low;
}

}  // namespace

LinkRowSummary summarize_links_row(std::span<const double> send_Bps, std::span<const double> recv_Bps, int self,
                                   double low_fraction) {
  LinkRowSummary s;
  const std::vector<double> out = peers_of(send_Bps, self), in = peers_of(recv_Bps, self);
  if (!out.empty()) {
    s.out_Bps = median_of(out);
    s.low_out = low_peers(send_Bps, self, low_fraction * s.out_Bps, s.low_out_count);
  }
  if (!in.empty()) {
    s.in_Bps = median_of(in);
    s.low_in = low_peers(recv_Bps, self, low_fraction * s.in_Bps, s.low_in_count);
  }
  return s;
}

HostLeaves host_leaves(const SwitchTopology& topology, const std::vector<std::string>& hosts) {
  HostLeaves out;
  for (const std::string& host : hosts) {
    const std::string leaf = topology.leaf_of(host);
    if (leaf.empty()) {
      out.leaf_of_host.push_back(-1);
      continue;
    }
    auto it = std::find(out.leaves.begin(), out.leaves.end(), leaf);
    if (it == out.leaves.end()) it = out.leaves.insert(out.leaves.end(), leaf);
    out.leaf_of_host.push_back(static_cast<int>(it - out.leaves.begin()));
  }
  return out;
}

std::vector<double> per_leaf_medians(std::span<const double> send_Bps, int self, std::span<const int> leaf_of_host,
                                     std::size_t leaves) {
  std::vector<std::vector<double>> by_leaf(leaves);
  const std::size_t n = std::min(send_Bps.size(), leaf_of_host.size());
  for (std::size_t j = 0; j < n; ++j) {
    const int leaf = leaf_of_host[j];
    if (static_cast<int>(j) == self || leaf < 0 || static_cast<std::size_t>(leaf) >= leaves) continue;
    if (std::isfinite(send_Bps[j])) by_leaf[static_cast<std::size_t>(leaf)].push_back(send_Bps[j]);
  }
  std::vector<double> medians(leaves);
  for (std::size_t b = 0; b < leaves; ++b) medians[b] = upper_median_of(by_leaf[b]);
  return medians;
}

}  // namespace bws::model
