#pragma once
// BS1-BS7 (seed 003, Chalmers & Warburton's Benchmark Streaming tests) on
// the rank's pinned threads: each swept over sizes and fitted with
// T(B) = T0 + B/Wmax (asymptotic bandwidth, fixed cost, B0.8 = 4 T0 Wmax).
#include <memory>

#include "core/Benchmark.hpp"
#include "core/Report.hpp"

namespace bws::bs {

std::unique_ptr<NodeBenchmark> make_bs_benchmark();
std::unique_ptr<BenchmarkReport> make_bs_report();

}  // namespace bws::bs
