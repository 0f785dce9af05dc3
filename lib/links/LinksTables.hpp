#pragma once
// The link map's small tables, from a fixed-size record per member (its
// row reduced where it was measured, model/LinkRows.hpp), so rank 0 holds
// N records and never the N x N matrices: /links/nodes (the per-node
// summary), /links/hosts (the matrices' row order) and the payload checks.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/ResultColumns.hpp"
#include "core/Table.hpp"
#include "links/LinksExchange.hpp"
#include "model/LinkRows.hpp"

namespace bws::links {

inline constexpr const char* kNodesPath = "links/nodes";
inline constexpr const char* kHostsPath = "links/hosts";
inline constexpr const char* kLowPeersPath = "links/low_peers";
inline constexpr const char* kSwitchesPath = "links/switches";
inline constexpr const char* kLeafMediansPath = "links/leaf_medians";
inline constexpr const char* kLeafMediansSamplesPath = "/links/leaf_medians_Bps";
inline constexpr const char* kPayloadCheck = "links.payload";
inline constexpr const char* kSendMatrixPath = "/links/send_Bps";
inline constexpr const char* kReceiveMatrixPath = "/links/recv_Bps";
inline constexpr const char* kLatencyMatrixPath = "/links/latency_s";

// A low peer as the record carries it (model::LowPeer, fixed size).
struct PeerBps {
  std::int64_t peer = -1;
  double Bps = 0;
};

// One member's summary, trivially copyable for gather_to_root: about 1 KB
// with the low-peer lists (10 MB on rank 0 at 10,000 nodes).
struct NodeRecord {
  double out_Bps = 0, in_Bps = 0;              // medians over the peers
  double worst_out_Bps = 0, worst_in_Bps = 0;  // the lowest peer's figure
  double latency_s = 0;                        // median over the peers (NaN when off)
  std::int64_t worst_out_peer = -1, worst_in_peer = -1;
  std::int64_t low_out = 0, low_in = 0;        // peers below the low fraction of the median
  std::int64_t world_rank = 0;
  std::uint64_t payload_problems = 0, bad_messages = 0;
  std::int64_t first_bad_peer = -1;
  // The lowest peers each way (model::summarize_links_row), lowest first;
  // *_listed of them are set (low_out / low_in count all, before the cap).
  std::int64_t low_out_listed = 0, low_in_listed = 0;
  PeerBps low_out_list[model::kMaxLowPeersPerNode] = {};
  PeerBps low_in_list[model::kMaxLowPeersPerNode] = {};
  char host[kHostWidth] = {};
};

NodeRecord summarize_member(const MemberRows& rows, int self, int world_rank, const std::string& host);
// The record's host name (its fixed-width field, up to the first NUL).
std::string host_of(const NodeRecord& record);

Table make_links_nodes_table();
Table make_links_hosts_table();
// /links/low_peers: node, host, direction ("out"/"in"), peer, peer_host, Bps.
Table make_links_low_peers_table();

// What rank 0 knows of the switch tree for the tables: the topology's
// switches with their parents, and each member's leaf (index into leaves,
// -1 unknown) and per-leaf medians (N x S, row-major). Empty: no tree.
struct LinksTree {
  std::vector<std::pair<std::string, std::string>> switch_parents;
  std::vector<std::string> leaves;
  std::vector<int> leaf_of_host;
  std::vector<double> leaf_medians_Bps;
  bool known() const { return !switch_parents.empty(); }
};

// The tables from every member's record (in member order) on rank 0; with
// a tree also /links/switches and /links/leaf_medians, and /links/hosts'
// leaf column filled.
std::vector<Table> links_tables(const std::vector<NodeRecord>& records, const std::string& plan_text,
                                const LinksTree& tree = {});

}  // namespace bws::links
