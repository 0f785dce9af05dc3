#pragma once
// A worked example of a benchmark folder (docs/ARCHITECTURE.md): likwid-
// bench's load kernel (a read-only sum over one array), with its store and
// update kernels beside it, on every rank's pinned Team.
#include <memory>

#include "core/Benchmark.hpp"
#include "core/Report.hpp"

namespace bws::load {

std::unique_ptr<NodeBenchmark> make_load_benchmark();
std::unique_ptr<BenchmarkReport> make_load_report();

}  // namespace bws::load
