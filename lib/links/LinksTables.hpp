#pragma once
// The link map's small tables, from a fixed-size record per member (its
// row reduced where it was measured, model/LinkRows.hpp), so rank 0 holds
// N records and never the N x N matrices: /links/nodes (the per-node
// summary), /links/hosts (the matrices' row order) and the payload checks.
#include <cstdint>
#include <string>
#include <vector>

#include "core/ResultColumns.hpp"
#include "core/Table.hpp"
#include "links/LinksExchange.hpp"

namespace bws::links {

inline constexpr const char* kNodesPath = "links/nodes";
inline constexpr const char* kHostsPath = "links/hosts";
inline constexpr const char* kPayloadCheck = "links.payload";
inline constexpr const char* kSendMatrixPath = "/links/send_Bps";
inline constexpr const char* kReceiveMatrixPath = "/links/recv_Bps";
inline constexpr const char* kLatencyMatrixPath = "/links/latency_s";

// One member's summary, trivially copyable for gather_to_root.
struct NodeRecord {
  double out_Bps = 0, in_Bps = 0;              // medians over the peers
  double worst_out_Bps = 0, worst_in_Bps = 0;  // the lowest peer's figure
  double latency_s = 0;                        // median over the peers (NaN when off)
  std::int64_t worst_out_peer = -1, worst_in_peer = -1;
  std::int64_t low_out = 0, low_in = 0;        // peers below the low fraction of the median
  std::int64_t world_rank = 0;
  std::uint64_t payload_problems = 0, bad_messages = 0;
  std::int64_t first_bad_peer = -1;
  char host[kHostWidth] = {};
};

NodeRecord summarize_member(const MemberRows& rows, int self, int world_rank, const std::string& host);

Table make_links_nodes_table();
Table make_links_hosts_table();
// The tables from every member's record (in member order) on rank 0.
std::vector<Table> links_tables(const std::vector<NodeRecord>& records, const std::string& plan_text);

}  // namespace bws::links
