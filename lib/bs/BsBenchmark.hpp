#pragma once
// BS1-BS7 (seed 003, Chalmers & Warburton's Benchmark Streaming tests) on
// the rank's pinned threads: each swept over sizes and fitted with
// T(B) = T0 + B/Wmax (asymptotic bandwidth, fixed cost, B0.8 = 4 T0 Wmax).
#include <memory>
#include <string>
#include <vector>

#include "core/Benchmark.hpp"
#include "core/Report.hpp"

namespace bws::bs {

std::unique_ptr<NodeBenchmark> make_bs_benchmark();
// Reads the kept /bs/fits rows of backend "cpu" (the OpenCL backend's rows
// are reported by the ocl benchmark, through bs_fit_summary_lines).
std::unique_ptr<BenchmarkReport> make_bs_report();
// The summary of the /bs/fits rows of one backend ("cpu", "ocl").
std::vector<std::string> bs_fit_summary_lines(const std::vector<Table>& tables, const std::string& backend);

}  // namespace bws::bs
