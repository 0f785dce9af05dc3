#include "links/LinksTables.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <tuple>

#include "core/SampleStats.hpp"
#include "model/LinkRows.hpp"

namespace bws::links {
namespace {

std::vector<double> as_doubles(const std::vector<float>& row) { return {row.begin(), row.end()}; }

// The lowest finite entry off the diagonal: {peer, value}, {-1, NaN} when none.
std::pair<std::int64_t, double> worst_of(const std::vector<float>& row, int self) {
  std::pair<std::int64_t, double> worst{-1, std::nan("")};
  for (std::size_t j = 0; j < row.size(); ++j) {
    if (static_cast<int>(j) == self || !std::isfinite(row[j])) continue;
    if (worst.first < 0 || row[j] < worst.second) worst = {static_cast<std::int64_t>(j), row[j]};
  }
  return worst;
}

double median_latency(const std::vector<float>& row, int self) {
  std::vector<double> values;
  for (std::size_t j = 0; j < row.size(); ++j)
    if (static_cast<int>(j) != self && std::isfinite(row[j])) values.push_back(row[j]);
  return median_of(values);
}

std::int64_t copy_peers(const std::vector<model::LowPeer>& from, PeerBps (&to)[model::kMaxLowPeersPerNode]) {
  const std::size_t n = std::min(from.size(), model::kMaxLowPeersPerNode);
  for (std::size_t k = 0; k < n; ++k) to[k] = {from[k].peer, from[k].Bps};
  return static_cast<std::int64_t>(n);
}

void add_low_peers(Table& table, const std::vector<NodeRecord>& records, std::size_t i) {
  const NodeRecord& r = records[i];
  for (const bool out : {true, false}) {
    const std::int64_t listed = std::min<std::int64_t>(out ? r.low_out_listed : r.low_in_listed,
                                                       static_cast<std::int64_t>(model::kMaxLowPeersPerNode));
    for (std::int64_t k = 0; k < listed; ++k) {
      const PeerBps& p = (out ? r.low_out_list : r.low_in_list)[k];
      const bool known = p.peer >= 0 && static_cast<std::size_t>(p.peer) < records.size();
      table.add_row({{"node", static_cast<std::int64_t>(i)},
                     {"host", host_of(r)},
                     {"direction", std::string(out ? "out" : "in")},
                     {"peer", p.peer},
                     {"peer_host", known ? host_of(records[static_cast<std::size_t>(p.peer)]) : std::string()},
                     {"Bps", p.Bps}});
    }
  }
}

Table make_switches_table() {
  return Table(kSwitchesPath, {text_column("switch", kHostWidth), text_column("parent", kHostWidth),
                               int_column("leaf_index")});
}

Table make_leaf_medians_table() {
  return Table(kLeafMediansPath, {int_column("node"), text_column("host", kHostWidth)}, kLeafMediansSamplesPath);
}

// /links/switches (leaf_index: the leaf's column in /links/leaf_medians'
// samples, -1 for a switch with no host of this run) and /links/leaf_medians.
std::vector<Table> tree_tables(const std::vector<NodeRecord>& records, const LinksTree& tree) {
  Table switches = make_switches_table(), medians = make_leaf_medians_table();
  for (const auto& [name, parent] : tree.switch_parents) {
    const auto it = std::find(tree.leaves.begin(), tree.leaves.end(), name);
    switches.add_row({{"switch", name},
                      {"parent", parent},
                      {"leaf_index", it == tree.leaves.end() ? std::int64_t{-1}
                                                             : static_cast<std::int64_t>(it - tree.leaves.begin())}});
  }
  const std::size_t S = tree.leaves.size();
  for (std::size_t i = 0; i < records.size(); ++i) {
    std::vector<double> row(S, std::nan(""));
    for (std::size_t b = 0; b < S && (i + 1) * S <= tree.leaf_medians_Bps.size(); ++b)
      row[b] = tree.leaf_medians_Bps[i * S + b];
    medians.add_row({{"node", static_cast<std::int64_t>(i)}, {"host", host_of(records[i])}}, std::move(row));
  }
  return {std::move(switches), std::move(medians)};
}

}  // namespace

std::string host_of(const NodeRecord& r) { return std::string(r.host, strnlen(r.host, kHostWidth)); }

NodeRecord summarize_member(const MemberRows& rows, int self, int world_rank, const std::string& host) {
  const std::vector<double> send = as_doubles(rows.send_Bps), recv = as_doubles(rows.recv_Bps);
  const model::LinkRowSummary s = model::summarize_links_row(send, recv, self);
  NodeRecord r;
  r.out_Bps = s.out_Bps;
  r.in_Bps = s.in_Bps;
  r.low_out = static_cast<std::int64_t>(s.low_out_count);
  r.low_in = static_cast<std::int64_t>(s.low_in_count);
  std::tie(r.worst_out_peer, r.worst_out_Bps) = worst_of(rows.send_Bps, self);
  std::tie(r.worst_in_peer, r.worst_in_Bps) = worst_of(rows.recv_Bps, self);
  r.latency_s = median_latency(rows.latency_s, self);
  r.world_rank = world_rank;
  r.payload_problems = rows.payload_problems;
  r.bad_messages = rows.bad_messages;
  r.first_bad_peer = rows.first_bad_peer;
  r.low_out_listed = copy_peers(s.low_out, r.low_out_list);
  r.low_in_listed = copy_peers(s.low_in, r.low_in_list);
  std::memcpy(r.host, host.data(), std::min(host.size(), kHostWidth - 1));
  return r;
}

Table make_links_nodes_table() {
  return Table(kNodesPath, {int_column("node"), text_column("host", kHostWidth), int_column("rank"),
                            real_column("out_Bps", "B/s"), real_column("in_Bps", "B/s"),
                            int_column("worst_out_peer"), real_column("worst_out_Bps", "B/s"),
                            int_column("worst_in_peer"), real_column("worst_in_Bps", "B/s"),
                            int_column("low_out_peers"), int_column("low_in_peers"), real_column("latency_s", "s"),
                            int_column("payload_problems")});
}

Table make_links_hosts_table() {
  return Table(kHostsPath,
               {int_column("index"), text_column("host", kHostWidth), int_column("rank"), text_column("leaf", kHostWidth)});
}

Table make_links_low_peers_table() {
  return Table(kLowPeersPath, {int_column("node"), text_column("host", kHostWidth), text_column("direction", 4),
                               int_column("peer"), text_column("peer_host", kHostWidth), real_column("Bps", "B/s")});
}

std::vector<Table> links_tables(const std::vector<NodeRecord>& records, const std::string& plan_text,
                                const LinksTree& tree) {
  Table nodes = make_links_nodes_table(), hosts = make_links_hosts_table(), checks = make_checks_table();
  Table low_peers = make_links_low_peers_table();
  std::uint64_t bad_members = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const NodeRecord& r = records[i];
    const std::string host = host_of(r);
    nodes.add_row({{"node", static_cast<std::int64_t>(i)},
                   {"host", host},
                   {"rank", r.world_rank},
                   {"out_Bps", r.out_Bps},
                   {"in_Bps", r.in_Bps},
                   {"worst_out_peer", r.worst_out_peer},
                   {"worst_out_Bps", r.worst_out_Bps},
                   {"worst_in_peer", r.worst_in_peer},
                   {"worst_in_Bps", r.worst_in_Bps},
                   {"low_out_peers", r.low_out},
                   {"low_in_peers", r.low_in},
                   {"latency_s", r.latency_s},
                   {"payload_problems", static_cast<std::int64_t>(r.payload_problems)}});
    const int leaf = i < tree.leaf_of_host.size() ? tree.leaf_of_host[i] : -1;
    hosts.add_row({{"index", static_cast<std::int64_t>(i)},
                   {"host", host},
                   {"rank", r.world_rank},
                   {"leaf", leaf >= 0 && static_cast<std::size_t>(leaf) < tree.leaves.size()
                                ? tree.leaves[static_cast<std::size_t>(leaf)]
                                : std::string()}});
    add_low_peers(low_peers, records, i);
    if (r.bad_messages == 0) continue;
    ++bad_members;
    const std::string subject = "node " + std::to_string(i) + " (" + host + "): " + std::to_string(r.bad_messages) +
                                " messages with " + std::to_string(r.payload_problems) +
                                " wrong words, the first from node " + std::to_string(r.first_bad_peer);
    add_check(checks, {kPayloadCheck, subject.substr(0, 160), "validation", static_cast<double>(r.bad_messages), 0, 0,
                       0, "messages", false});
  }
  if (bad_members == 0)
    add_check(checks, {kPayloadCheck, ("every verification message checked: " + plan_text).substr(0, 160),
                       "validation", 0, 0, 0, 0, "messages", true});
  std::vector<Table> tables{std::move(nodes), std::move(hosts), std::move(checks), std::move(low_peers)};
  if (tree.known())
    for (Table& t : tree_tables(records, tree)) tables.push_back(std::move(t));
  return tables;
}

}  // namespace bws::links
