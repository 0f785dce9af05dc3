#pragma once
// The schemas of STREAM's tables, one per benchmark whatever the device:
// one row per rank, backend, type and operation (stream/results, samples in
// stream/times), and one row per node, backend, type and operation
// (stream/nodes: the node's aggregate bandwidth). The backend column says
// where it ran ("cpu": the Team; "ocl": an OpenCL device, its name in
// device); PCI_write/PCI_read rows exist for backends with transfers.
#include "core/Table.hpp"

namespace bws::stream {

inline constexpr const char* kResultsPath = "stream/results";
inline constexpr const char* kTimesPath = "stream/times";
inline constexpr const char* kNodesPath = "stream/nodes";
inline constexpr const char* kBackendCpu = "cpu";
inline constexpr std::size_t kDeviceWidth = 128;

// rank, host, backend, kernel, threads, device, type, stores, variant,
// elements, reps, avg_rel_error, error_limit, ceiling, bytes, t_min,
// t_avg, t_max, bandwidth, valid.
Table make_stream_results_table();

// host, backend, ranks, threads, devices, device, kernel, type, stores,
// elements, bytes, t_min, t_avg, t_max, bandwidth, valid.
Table make_stream_nodes_table();

}  // namespace bws::stream
