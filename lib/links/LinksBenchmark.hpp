#pragma once
// The pairwise link map (after mpiGraph, one rank per node, measured in rounds of disjoint pairs):
// send and receive bandwidth of every ordered pair of nodes and an 8-byte
// latency, each member's rows streamed to rank 0's MatrixSink in batches,
// a per-node summary as tables.
#include <memory>

#include "core/CollectiveBenchmark.hpp"
#include "core/Report.hpp"

namespace bws::links {

std::unique_ptr<CollectiveBenchmark> make_links_benchmark();
// Reads the kept links/nodes table.
std::unique_ptr<BenchmarkReport> make_links_report();

}  // namespace bws::links
