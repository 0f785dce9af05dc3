#pragma once
// STREAM (McCalpin v5.10, seed 000): Copy, Scale, Add, Triad on arrays local
// to the rank's NUMA node, per thread chunk, double and/or float.
#include <memory>

#include "core/Benchmark.hpp"
#include "core/Report.hpp"

namespace bws::stream {

std::unique_ptr<NodeBenchmark> make_stream_benchmark();
std::unique_ptr<BenchmarkReport> make_stream_report();

}  // namespace bws::stream
