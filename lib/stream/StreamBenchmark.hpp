#pragma once
// McCalpin's STREAM (v5.10): Copy, Scale, Add, Triad on arrays local
// to the rank's NUMA node, per thread chunk, double and/or float; or on any
// backend of the backend list (an OpenCL device: HPCC_FPGA's device STREAM).
#include <memory>

#include "core/Benchmark.hpp"
#include "core/Report.hpp"
#include "stream/StreamDevice.hpp"

namespace bws::stream {

// Runs on the backends --stream.backend names, among `backends` (the
// backend list's STREAM implementations); without: the CPU backend only.
std::unique_ptr<NodeBenchmark> make_stream_benchmark(StreamBackends backends);
std::unique_ptr<NodeBenchmark> make_stream_benchmark();
std::unique_ptr<BenchmarkReport> make_stream_report();

}  // namespace bws::stream
