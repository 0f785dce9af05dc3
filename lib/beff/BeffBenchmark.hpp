#pragma once
// Rabenseifner's b_eff (effective bandwidth; HPCC's ring test; HPCC_FPGA's model):
// every rank exchanges messages of 21 sizes with both neighbours of the
// natural ring and of random rings; b_eff is the mean over the sizes of the
// best aggregate bandwidth; a 2-rank reference ring gives the per-rank
// figure that the linear-scaling check compares with.
#include <memory>

#include "core/CollectiveBenchmark.hpp"
#include "core/DeviceBuffers.hpp"
#include "core/Report.hpp"

namespace bws::beff {

// device: what opens device buffers for --beff.path device (the registry
// passes lib/ocl's OpenCL provider when the build has OpenCL); without it
// --beff.path device is a usage error.
std::unique_ptr<CollectiveBenchmark> make_beff_benchmark(std::shared_ptr<const DeviceBuffersProvider> device = nullptr);
// Reads the kept "beff/sizes" and "beff/summary" tables.
std::unique_ptr<BenchmarkReport> make_beff_report();

}  // namespace bws::beff
