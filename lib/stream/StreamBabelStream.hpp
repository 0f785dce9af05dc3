#pragma once
// STREAM's results as BabelStream's `--csv` prints them (BabelStream 5.0,
// src/main.cpp), for tools that read BabelStream output. The first eight
// columns are BabelStream's header exactly:
//   function,num_times,n_elements,sizeof,max_mbytes_per_sec,min_runtime,max_runtime,avg_runtime
// function: Copy, Mul, Add, Triad (STREAM's Scale is BabelStream's Mul,
// b = scalar * c; STREAM has no Dot); num_times: the repetitions, the first
// one left out of the statistics as in BabelStream; n_elements: per array;
// sizeof: bytes per element; max_mbytes_per_sec: MB/s with MB = 1e6 bytes,
// from the minimum time; runtimes in seconds. Then the columns BabelStream
// does not have (one BabelStream run is one device): host, ranks or rank,
// type, backend, stores. A device's PCI_write/PCI_read rows are left out
// (not BabelStream functions).
//  - stream/babelstream: one row per node aggregate (stream/nodes: the
//    node's ranks together, n_elements summed, times of the slowest rank),
//    per function, type and backend; num_times from stream/results.
//  - stream/babelstream-ranks: one row per rank (stream/results).
#include <vector>

#include "core/Table.hpp"

namespace bws::stream {

inline constexpr const char* kBabelStreamPath = "stream/babelstream";
inline constexpr const char* kBabelStreamRanksPath = "stream/babelstream-ranks";

// From stream/nodes and stream/results among `tables` (others are ignored).
Table babelstream_table(const std::vector<Table>& tables);
// From stream/results among `tables`.
Table babelstream_ranks_table(const std::vector<Table>& tables);

}  // namespace bws::stream
