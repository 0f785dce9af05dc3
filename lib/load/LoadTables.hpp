#pragma once
// The load benchmark's tables. load/results: one row per rank and kernel,
// every pass's seconds in load/times (rank, host, backend, kernel, threads,
// elements, reps, bytes_read, bytes_written, checksum, expected_checksum,
// bytes, t_min, t_avg, t_max, bandwidth, valid). load/nodes: one row per
// node and kernel, its ranks together (host, ranks, threads, kernel,
// elements, bytes, t_min, t_avg, t_max, bandwidth, valid).
#include "core/Table.hpp"

namespace bws::load {

inline constexpr const char *kResultsPath = "load/results", *kTimesPath = "load/times", *kNodesPath = "load/nodes";

Table make_load_results_table();
Table make_load_nodes_table();

}  // namespace bws::load
