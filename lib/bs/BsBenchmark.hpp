#pragma once
// BS1-BS7 (Chalmers & Warburton's Benchmark Streaming tests) on
// the rank's pinned threads: each swept over sizes and fitted with
// T(B) = T0 + B/Wmax (asymptotic bandwidth, fixed cost, B0.8 = 4 T0 Wmax).
#include <memory>
#include <string>
#include <vector>

#include "core/Benchmark.hpp"
#include "bs/BsDevice.hpp"
#include "core/Report.hpp"

namespace bws::bs {

// Runs on the backends --bs.backend names, among `backends` (the backend
// list's BS implementations); without: the CPU backend only.
std::unique_ptr<NodeBenchmark> make_bs_benchmark(BsBackends backends);
std::unique_ptr<NodeBenchmark> make_bs_benchmark();
// Reads the kept /bs/fits rows: a summary per backend.
std::unique_ptr<BenchmarkReport> make_bs_report();
// The summary of the /bs/fits rows of one backend ("cpu", "ocl").
std::vector<std::string> bs_fit_summary_lines(const std::vector<Table>& tables, const std::string& backend);

}  // namespace bws::bs
