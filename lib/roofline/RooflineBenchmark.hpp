#pragma once
// Williams' roofline ceilings per rank and node: the FMA peak
// (FLOP/s) on all pinned threads in double and float, DGEMM/SGEMM through a
// BLAS where the build has one, and STREAM Triad bandwidth; their ratio is
// the machine balance (FLOP/byte).
#include <memory>

#include "core/Benchmark.hpp"
#include "core/Report.hpp"

namespace bws::roofline {

std::unique_ptr<NodeBenchmark> make_roofline_benchmark();
std::unique_ptr<BenchmarkReport> make_roofline_report();

}  // namespace bws::roofline
