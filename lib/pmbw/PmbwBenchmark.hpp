#pragma once
// Bingmann's pmbw (Parallel Memory Bandwidth benchmark) on the
// rank's pinned threads: scan and permutation-walk routines in assembly,
// swept over pmbw's sizes and thread counts, with pmbw's names and its
// stats.txt output for comparison.
#include <memory>
#include <vector>

#include "core/Benchmark.hpp"
#include "core/Report.hpp"
#include "core/TableExporter.hpp"

namespace bws::pmbw {

std::unique_ptr<NodeBenchmark> make_pmbw_benchmark();
std::unique_ptr<BenchmarkReport> make_pmbw_report();
// --pmbw.stats FILE (nullptr when not asked for).
std::unique_ptr<TableExporter> make_pmbw_exporter(const Config& config);
// /pmbw/nodes from the node's ranks' /pmbw/plateaus.
std::vector<Table> summarize_pmbw_node(const std::vector<Table>& rank_tables);

}  // namespace bws::pmbw
