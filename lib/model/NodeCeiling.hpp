#pragma once
// A node figure above what the node can physically deliver is a bug (ranks
// summed that shared cores, a timer that went backwards), never a result.
// Every bandwidth column (unit B/s) of a node-level table is checked
// against the node's ceiling: hwloc's memory bandwidth attributes where the
// firmware gives them (ACPI HMAT; they describe DRAM, so they bound rows
// whose arrays exceed the last-level cache), and everywhere a stated bound
// per core: 512 bytes per cycle at 6 GHz, more than the load and store
// ports of any core's L1 can move. Rows above it are marked valid=0 (the
// run then exits 1) and a failed check names them. Pure.
#include <cstdint>
#include <vector>

#include "core/Table.hpp"

namespace bws::model {

inline constexpr double kPerCoreCeilingBps = 512.0 * 6e9;

struct NodeCeiling {
  int cores = 1;                 // the cores the node's ranks run on
  double dram_Bps = 0;           // hwloc's DRAM bandwidth of the node (0: not given)
  std::uint64_t llc_bytes = 0;   // rows with more bytes than this are DRAM-bound
  double per_core_Bps = kPerCoreCeilingBps;
  // The ceiling of a row that moved `bytes` (0: unknown).
  double for_bytes(std::uint64_t bytes) const;
};

// Marks valid=0 on every row of `tables` (node-level, of `host`) whose B/s
// cells exceed the ceiling; returns failed-check rows for /checks.
Table enforce_node_ceiling(std::vector<Table>& tables, const std::string& host, const NodeCeiling& ceiling);

}  // namespace bws::model
