#pragma once
// A node's aggregate STREAM bandwidth from the result tables of its ranks.
#include <vector>

#include "core/Table.hpp"

namespace bws::stream {

// rank_tables: all tables of the node's ranks in rank order; only
// "stream/results" tables are read. Returns one "stream/nodes" table (none
// when there are no stream results): per backend, type and kernel, the
// node's times by core/NodeAggregate.hpp (the slowest rank per repetition
// k >= 1, its rule for missing samples), and bandwidth = bytes of all
// ranks / best node time.
std::vector<Table> summarize_stream_node(const std::vector<Table>& rank_tables);

}  // namespace bws::stream
