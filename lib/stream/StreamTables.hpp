#pragma once
// The schemas of STREAM's tables: one row per rank, type and kernel
// (stream/results, samples in stream/times), and one row per node, type and
// kernel (stream/nodes: the node's aggregate bandwidth).
#include "core/Table.hpp"

namespace bws::stream {

inline constexpr const char* kResultsPath = "stream/results";
inline constexpr const char* kTimesPath = "stream/times";
inline constexpr const char* kNodesPath = "stream/nodes";
inline constexpr const char* kBackendCpu = "cpu";

// rank, host, backend, kernel, threads, type, stores, elements, ntimes,
// avg_rel_error, bytes, t_min, t_avg, t_max, bandwidth, valid.
Table make_stream_results_table();

// host, ranks, threads, kernel, type, stores, elements, bytes, t_min, t_avg,
// t_max, bandwidth, valid.
Table make_stream_nodes_table();

}  // namespace bws::stream
