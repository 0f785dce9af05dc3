// The OpenCL backend's plain-C++ parts (lib/ocl), no device needed: the
// length rule and the other planning errors, device choice by index, name
// and local rank, the rate ceiling.
#include <gtest/gtest.h>

#include "TestSupport.hpp"

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "beff/BeffPayload.hpp"
#include "core/Config.hpp"
#include "core/ResultColumns.hpp"
#include "ocl/OclBsKernels.hpp"
#include "stream/StreamPlan.hpp"
#include "ocl/OclOptions.hpp"
#include "ocl/OclPlan.hpp"
#include "ocl/OclRateCeiling.hpp"
#include "ocl/OclRuntime.hpp"
#include "ocl/OclSelection.hpp"
#include "ocl/OclStreamKernels.hpp"
#include "ocl/OclStreamPlan.hpp"
#include "backends/Backends.hpp"
#include "backends/LegacyOclAliases.hpp"
#include "bs/BsBenchmark.hpp"
#include "stream/StreamBenchmark.hpp"
#include "topology/Topology.hpp"
#include "bs/BsDevice.hpp"
#include "stream/StreamNodeSummary.hpp"
#include "stream/StreamResults.hpp"
#include "stream/StreamTables.hpp"

namespace bws::ocl {
namespace {

using test::config_with;
using test::usage_error_of;

// A GPU-like device: 8 GiB, 2 GiB largest buffer, 4 MiB cache, 64 KiB local memory.
OclDeviceInfo gpu(int platform = 0, int index = 0, std::string name = "Test GPU") {
  OclDeviceInfo d;
  d.platform_index = platform;
  d.device_index = index;
  d.platform_name = "Test Platform";
  d.name = std::move(name);
  d.type = "GPU";
  d.compute_units = 10;
  d.max_clock_mhz = 1000;
  d.global_memory_bytes = 8ull << 30;
  d.max_allocation_bytes = 2ull << 30;
  d.global_cache_bytes = 4ull << 20;
  d.cache_line_bytes = 128;
  d.local_memory_bytes = 64ull << 10;
  d.max_work_group_size = 1024;
  d.fp64 = true;
  return d;
}

std::vector<OclPlatformInfo> two_platforms() {
  OclPlatformInfo a{0, "Portable Computing Language", "The pocl project", "OpenCL 3.0", {}};
  a.devices.push_back(gpu(0, 0, "pthread-cpu"));
  a.devices.back().platform_name = a.name;
  OclPlatformInfo b{1, "NVIDIA CUDA", "NVIDIA Corporation", "OpenCL 3.0 CUDA", {}};
  for (int i = 0; i < 4; ++i) {
    b.devices.push_back(gpu(1, i, i < 2 ? "NVIDIA H100" : "NVIDIA A100"));
    b.devices.back().platform_name = b.name;
  }
  return {a, b};
}

// ---- the length rule ----

TEST(OclStreamLength, AMultipleOfReplicationsVectorAndBufferPasses) {
  OclStreamParams p;
  p.replications = 2;
  p.vector_count = 4;
  p.buffer_size = 1024;
  EXPECT_EQ(p.length_unit(), 8192u);
  EXPECT_NO_THROW(check_stream_length(8192 * 3, p, "--stream.elements"));
}

TEST(OclStreamLength, AnyOtherLengthNamesTheNearestValidOnes) {
  OclStreamParams p;
  p.replications = 2;
  p.vector_count = 4;
  p.buffer_size = 1024;
  const std::string e = usage_error_of([&] { check_stream_length(20000, p, "--stream.elements"); });
  EXPECT_NE(e.find("--stream.elements 20000: not a multiple of replications x vector-count x buffer-size = 2 x 4 x 1024 "
                   "= 8192"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("nearest valid lengths: 16384 and 24576"), std::string::npos) << e;
  const std::string small = usage_error_of([&] { check_stream_length(100, p, "--stream.elements"); });
  EXPECT_NE(small.find("nearest valid lengths: 8192"), std::string::npos) << small;
}

TEST(OclStreamPlan, ExplicitLengthsFollowTheRule) {
  const std::string e = usage_error_of([] {
    plan_ocl_stream(config_with({{"stream.elements", "1000000"}, {"ocl.buffer-size", "4096"}}), gpu(), 1, false);
  });
  EXPECT_NE(e.find("--stream.elements 1000000: not a multiple of"), std::string::npos) << e;
  EXPECT_NE(e.find("nearest valid lengths: 999424 and 1003520"), std::string::npos) << e;
  const OclStreamParams p =
      plan_ocl_stream(config_with({{"stream.elements", "1M"}, {"ocl.replications", "4"}}), gpu(), 1, false);
  EXPECT_EQ(p.elements, 1u << 20);
  EXPECT_EQ(p.elements_per_replication(), 1u << 18);
  EXPECT_EQ(p.blocks_per_replication(), (1u << 18) / 4096);
}

TEST(OclStreamPlan, TheDeviceIsJudgedByTheCpusRuleAndItsOption) {
  // The same option, parsed by the same function, as the CPU backend.
  const OclStreamParams defaults = plan_ocl_stream(config_with({{"stream.elements", "1M"}}), gpu(), 1, false);
  EXPECT_EQ(defaults.validation.limit<double>(), 1e-13);  // STREAM 5.10, not the machine epsilon 2.2e-16
  EXPECT_EQ(defaults.validation.limit<float>(), 1e-6);
  const OclStreamParams set = plan_ocl_stream(
      config_with({{"stream.elements", "1M"}, {"stream.validate-epsilon", "1e-12"}}), gpu(), 1, false);
  EXPECT_EQ(set.validation.limit<double>(), 1e-12);
  // b off by 6.6e-10 in one of 1000 elements (avg rel error 1.1e-13): fails
  // the default, passes 1e-12, through judge_stream_run as the device runner calls it.
  std::vector<double> a(1000, 30.0), b(1000, 6.0), c(1000, 8.0);
  b[5] += 6.6e-10;
  const stream::StreamExpected e = stream::stream_expected_values<double>(1);
  const stream::StreamErrorSums sums = stream::sum_stream_errors(a.data(), b.data(), c.data(), 0, 1000, e);
  EXPECT_FALSE(stream::judge_stream_run<double>(sums, 1000, 1, defaults.validation).passed());
  EXPECT_TRUE(stream::judge_stream_run<double>(sums, 1000, 1, set.validation).passed());
  const std::string e2 = usage_error_of(
      [] { plan_ocl_stream(config_with({{"stream.elements", "1M"}, {"stream.validate-epsilon", "0"}}), gpu(), 1, false); });
  EXPECT_NE(e2.find("--stream.validate-epsilon"), std::string::npos) << e2;
}

TEST(OclStreamPlan, AutoIsAMultipleAboveTheCacheWithinMemory) {
  const OclStreamParams p = plan_ocl_stream(config_with({{"ocl.replications", "3"}}), gpu(), 1, false);
  EXPECT_TRUE(p.elements_auto);
  EXPECT_EQ(p.elements % p.length_unit(), 0u);
  EXPECT_GE(p.elements + p.length_unit(), kAutoMinElements);  // 10^7 rounded down to whole blocks
  EXPECT_LE(p.elements, kAutoMinElements);
  // The repetitions are the STREAM driver's (StreamCommonParams), one count for every backend.
  // A small device: 40% of 256 MiB for 2 ranks, 3 doubles per element.
  OclDeviceInfo small = gpu();
  small.global_memory_bytes = 256ull << 20;
  const OclStreamParams s = plan_ocl_stream(Config{}, small, 2, false);
  EXPECT_LE(3 * s.elements * 8 * 2, (256ull << 20) * 4 / 10);
  EXPECT_EQ(s.elements % s.length_unit(), 0u);
}

TEST(OclStreamPlan, BadValuesNameTheOption) {
  EXPECT_NE(usage_error_of([] { plan_ocl_stream(config_with({{"ocl.vector-count", "3"}}), gpu(), 1, false); })
                .find("--ocl.vector-count: '3' is not an OpenCL vector width; allowed: 1, 2, 4, 8, 16"),
            std::string::npos);
  // 8192 doubles of 8 lanes: 512 KiB of local memory; the device has 64 KiB.
  const std::string local = usage_error_of([] {
    plan_ocl_stream(config_with({{"ocl.vector-count", "8"}, {"ocl.buffer-size", "8192"}}), gpu(), 1, false);
  });
  EXPECT_NE(local.find("--ocl.buffer-size: '8192' is out of range; allowed: 1..1024"), std::string::npos) << local;
  EXPECT_NE(local.find("local memory"), std::string::npos) << local;
  // The separate kernels use no local buffer.
  EXPECT_NO_THROW(plan_ocl_stream(
      config_with({{"ocl.vector-count", "8"}, {"ocl.buffer-size", "8192"}, {"ocl.single-kernel", "false"}}), gpu(), 1,
      false));
  OclDeviceInfo no_fp64 = gpu();
  no_fp64.fp64 = false;
  EXPECT_NE(usage_error_of([&] { plan_ocl_stream(Config{}, no_fp64, 1, false); })
                .find("--stream.type: double needs cl_khr_fp64, which Test GPU (Test Platform) lacks; allowed: float"),
            std::string::npos);
  EXPECT_EQ(plan_ocl_stream(config_with({{"stream.type", "float"}}), no_fp64, 1, false).type, stream::StreamType::Float);
  EXPECT_NE(usage_error_of([] { plan_ocl_stream(config_with({{"stream.reps", "31"}, {"stream.type", "float"}}), gpu(), 1,
                                                false); })
                .find("--stream.reps: '31' is out of range; allowed: 2..30"),
            std::string::npos);
  EXPECT_NE(usage_error_of([] { plan_ocl_stream(config_with({{"stream.elements", "64G"}}), gpu(), 1, false); })
                .find("--stream.elements 64G: 3 arrays of"),
            std::string::npos);
  EXPECT_NE(usage_error_of([] {
              Config c = config_with({{"tests", "ocl"}, {"ocl.tests", "stream,roofline"}});
              backends::resolve_legacy_ocl_aliases(c);
            }).find("--ocl.tests: unknown part 'roofline'"),
            std::string::npos);
}

TEST(OclBsPlan, TheSweepScalesWithTheDevicesCache) {
  const bs::BsParams p = plan_bs_on_device(bs::bs_schema().read(Config{}, true), gpu(), 1, true);
  EXPECT_EQ(p.fit_min_bytes, 4u << 20);          // auto: the device's global memory cache
  EXPECT_EQ(p.max_bytes, 32u << 20);             // --quick: max(8 x 4 MiB, 16 MiB)
  EXPECT_EQ(p.points, bs::kQuickPoints);
  OclDeviceInfo tiny = gpu();
  tiny.max_allocation_bytes = 1 << 20;
  const std::string e = usage_error_of([&] { plan_bs_on_device(bs::bs_schema().read(Config{}, true), tiny, 1, true); });
  EXPECT_NE(e.find("--bs.max-bytes"), std::string::npos) << e;
  EXPECT_NE(e.find("exceeds the largest buffer of Test GPU"), std::string::npos) << e;
  tiny.fp64 = false;
  EXPECT_NE(usage_error_of([&] { plan_bs_on_device(bs::bs_schema().read(Config{}, true), tiny, 1, true); }).find("--bs.backend ocl: bs needs double"),
            std::string::npos);
}

// ---- device choice ----

// --ocl.platform and --ocl.device as the user types them.
OclChoice choose(const std::vector<OclPlatformInfo>& platforms, const std::string& platform, const std::string& device,
                 int local_rank, int ranks_on_node) {
  return choose_device(platforms, config_with({{"ocl.platform", platform}, {"ocl.device", device}}), local_rank,
                       ranks_on_node);
}

TEST(OclSelection, ByIndexByNameAndByLocalRank) {
  const auto platforms = two_platforms();
  EXPECT_EQ(choose(platforms, "auto", "auto", 0, 1).device.name, "pthread-cpu");
  const OclChoice by_name = choose(platforms, "nvidia", "a100", 1, 4);
  EXPECT_EQ(by_name.device.device_index, 3);  // the A100s are devices 2 and 3; local rank 1 takes the second
  EXPECT_EQ(by_name.candidates, 2);
  EXPECT_EQ(by_name.ranks_on_device, 2);      // local ranks 1 and 3
  EXPECT_EQ(choose(platforms, "1", "2", 5, 8).device.device_index, 2);
  // Four devices, six ranks: ranks 0 and 4 share device 0, ranks 3 alone on device 3.
  EXPECT_EQ(choose(platforms, "1", "auto", 4, 6).device.device_index, 0);
  EXPECT_EQ(choose(platforms, "1", "auto", 4, 6).ranks_on_device, 2);
  EXPECT_EQ(choose(platforms, "1", "auto", 3, 6).ranks_on_device, 1);
}

TEST(OclSelection, WhatDoesNotExistIsAUsageErrorListingWhatDoes) {
  const auto platforms = two_platforms();
  const std::string p = usage_error_of([&] { choose(platforms, "2", "auto", 0, 1); });
  EXPECT_NE(p.find("--ocl.platform: 2 is out of range; allowed: auto, an index or a name substring of 0 'Portable "
                   "Computing Language', 1 'NVIDIA CUDA'"),
            std::string::npos)
      << p;
  const std::string d = usage_error_of([&] { choose(platforms, "nvidia", "v100", 0, 1); });
  EXPECT_NE(d.find("--ocl.device: no device matches 'v100'"), std::string::npos) << d;
  EXPECT_NE(d.find("2 'NVIDIA A100'"), std::string::npos) << d;
  EXPECT_NE(usage_error_of([&] { choose(platforms, "o", "auto", 0, 1); }).find("matches 2 platforms"),
            std::string::npos);
  EXPECT_NE(usage_error_of([&] { choose({}, "auto", "auto", 0, 1); }).find("--ocl.platform: no OpenCL platform"),
            std::string::npos);
}

TEST(OclSelection, TheListingShowsEveryDevice) {
  const std::string text = device_listing(two_platforms());
  EXPECT_NE(text.find("platform 1: NVIDIA CUDA"), std::string::npos) << text;
  EXPECT_NE(text.find("  device 3: NVIDIA A100 [GPU]"), std::string::npos) << text;
  EXPECT_NE(text.find("10 compute units, 1000 MHz, global memory 8.00 GiB"), std::string::npos) << text;
}

// ---- the rate ceiling ----

TEST(OclRateCeiling, ComputeUnitsTimesClockTimesLines) {
  OclDeviceInfo d = gpu();
  EXPECT_DOUBLE_EQ(device_rate_ceiling_Bps(d), 10 * 1e9 * 128 * kLinesPerCycle);
  d.compute_units = 100000;
  EXPECT_DOUBLE_EQ(device_rate_ceiling_Bps(d), kAbsurdBps);
  d.max_clock_mhz = 0;
  EXPECT_DOUBLE_EQ(device_rate_ceiling_Bps(d), kAbsurdBps);
}

}  // namespace
}  // namespace bws::ocl
