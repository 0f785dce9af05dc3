#pragma once
// The OpenCL backend (issue 7): on each rank's device (--ocl.platform,
// --ocl.device, spread over a node's devices by local rank), seed 000's
// STREAM with its PCI write/read rows and BS1-BS7 with their T0/Wmax fits
// (rows with backend "ocl" in /bs/results and /bs/fits). b_eff's PCIe path
// (--beff.path device) uses this folder's DeviceBuffersProvider; the
// registry runs it after this benchmark when --tests names ocl.
#include <memory>

#include "core/Benchmark.hpp"
#include "core/DeviceBuffers.hpp"
#include "core/Report.hpp"

namespace bws::ocl {

std::unique_ptr<NodeBenchmark> make_ocl_benchmark();
// Reads the kept ocl/stream/nodes and bs/fits (backend "ocl") tables.
std::unique_ptr<BenchmarkReport> make_ocl_report();
// --ocl.tests names beff: the registry then runs b_eff on the device path
// after this benchmark.
bool wants_device_beff(const Config& config);
// What b_eff's --beff.path device opens; nullptr in a build without OpenCL.
std::shared_ptr<const DeviceBuffersProvider> device_buffers_provider();

}  // namespace bws::ocl
