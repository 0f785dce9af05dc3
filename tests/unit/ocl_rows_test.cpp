// The OpenCL backend's plain-C++ parts (lib/ocl), no device needed: the
// byte multipliers and validity of the STREAM rows, the generated kernel
// sources, OpenCL error names, b_eff's device payload, a build without OpenCL.
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

// ---- rows ----

// Device STREAM's six operations, 3 repetitions each: {2s, s, 3s}.
stream::StreamTypeMeasurement measurement(std::uint64_t elements, double seconds, bool valid) {
  stream::StreamTypeMeasurement m;
  m.elements = elements;
  m.reps = 3;
  for (const stream::StreamOpSpec& op : stream::kStreamOpSpecs) {
    m.ops.push_back(op.op);
    m.seconds.push_back({2 * seconds, seconds, 3 * seconds});
  }
  for (std::size_t i = 0; i < 3; ++i) {
    m.validation.arrays[i].array = static_cast<stream::StreamArray>(i);
    m.validation.arrays[i].limit = 1e-13;  // STREAM 5.10, double
    m.validation.arrays[i].passed = valid || i != 1;
    m.validation.arrays[i].avg_rel_error = valid ? 0 : (i == 1 ? 1e-3 : 0);
  }
  return m;
}

stream::StreamDeviceInfo test_gpu(double ceiling_Bps) { return {"ocl", "Test GPU (Test Platform)", 10, ceiling_Bps, true}; }

TEST(OclStreamRows, SeedByteMultipliersAndRatesFromTheMinimum) {
  Table results = stream::make_stream_results_table(), checks = make_checks_table();
  stream::add_stream_results(results, checks, {3, "node7"}, test_gpu(1e15), measurement(1 << 20, 1e-3, true));
  ASSERT_EQ(results.rows(), 6u);
  const std::vector<std::string> labels = {"PCI_write", "Copy", "Scale", "Add", "Triad", "PCI_read"};
  const std::vector<int> multipliers = {3, 2, 2, 3, 3, 3};
  for (std::size_t r = 0; r < 6; ++r) {
    EXPECT_EQ(results.get_string(r, "kernel"), labels[r]);
    EXPECT_EQ(results.get_string(r, "backend"), "ocl");
    EXPECT_EQ(results.get_string(r, "device"), "Test GPU (Test Platform)");
    EXPECT_EQ(results.get_int(r, "threads"), 10);
    EXPECT_EQ(results.get_int(r, "bytes"), multipliers[r] * (1 << 20) * 8);
    EXPECT_DOUBLE_EQ(results.get_double(r, "t_min"), 1e-3);  // the first repetition is the warm-up
    EXPECT_DOUBLE_EQ(results.get_double(r, "t_avg"), 2e-3);
    EXPECT_DOUBLE_EQ(results.get_double(r, "bandwidth"), multipliers[r] * (1 << 20) * 8 / 1e-3);
    EXPECT_DOUBLE_EQ(results.get_double(r, "ceiling"), 1e15);
    EXPECT_EQ(results.get_int(r, "valid"), 1);
    EXPECT_EQ(results.samples(r).size(), 3u);
  }
  EXPECT_EQ(checks.rows(), 3u + 6u);  // a validation per array, a ceiling per row
}

TEST(OclStreamRows, AnImpossibleRateOrABadArrayIsAnErrorNotAResult) {
  Table results = stream::make_stream_results_table(), checks = make_checks_table();
  // 24 MiB in 1 ns: far above a 1 TB/s ceiling.
  stream::add_stream_results(results, checks, {0, "n"}, test_gpu(1e12), measurement(1 << 20, 1e-9, true));
  for (std::size_t r = 0; r < results.rows(); ++r) EXPECT_EQ(results.get_int(r, "valid"), 0);
  int failed_ceilings = 0;
  for (std::size_t r = 0; r < checks.rows(); ++r)
    if (checks.get_string(r, "check") == "stream.rate_ceiling" && checks.get_int(r, "passed") == 0) ++failed_ceilings;
  EXPECT_EQ(failed_ceilings, 6);

  Table bad = stream::make_stream_results_table(), bad_checks = make_checks_table();
  stream::add_stream_results(bad, bad_checks, {0, "n"}, test_gpu(1e15), measurement(1 << 20, 1e-3, false));
  for (std::size_t r = 0; r < bad.rows(); ++r) EXPECT_EQ(bad.get_int(r, "valid"), 0);
  EXPECT_DOUBLE_EQ(bad.get_double(2, "avg_rel_error"), 1e-3);  // Scale writes B
  EXPECT_DOUBLE_EQ(bad.get_double(0, "avg_rel_error"), 1e-3);  // PCI write moves all three: the largest
  bool named = false;
  for (std::size_t r = 0; r < bad_checks.rows(); ++r)
    if (bad_checks.get_int(r, "passed") == 0 && bad_checks.get_string(r, "subject").find("array b") != std::string::npos)
      named = bad_checks.get_string(r, "subject").find("STREAM 5.10's limit") != std::string::npos;
  EXPECT_TRUE(named);
}

TEST(OclStreamRows, TheNodeTimeOfARepetitionIsItsSlowestRank) {
  Table a = stream::make_stream_results_table(), b = stream::make_stream_results_table(), checks = make_checks_table();
  stream::StreamTypeMeasurement fast = measurement(1000, 1e-3, true), slow = measurement(1000, 1e-3, true);
  for (auto& s : slow.seconds) s = {1e-3, 4e-3, 2e-3};  // best at another repetition than the fast rank
  stream::add_stream_results(a, checks, {0, "n"}, test_gpu(1e15), fast);
  stream::add_stream_results(b, checks, {1, "n"}, test_gpu(1e15), slow);
  const std::vector<Table> nodes = stream::summarize_stream_node({a, b});
  ASSERT_EQ(nodes.size(), 1u);
  ASSERT_EQ(nodes[0].rows(), 6u);
  // per repetition max: {2e-3, 4e-3, 3e-3}, the first dropped: the best is
  // 3e-3, not a rank's own best (1e-3, 2e-3)
  EXPECT_DOUBLE_EQ(nodes[0].get_double(0, "t_min"), 3e-3);
  EXPECT_EQ(nodes[0].get_string(0, "kernel"), "PCI_write");
  EXPECT_EQ(nodes[0].get_string(0, "backend"), "ocl");
  EXPECT_EQ(nodes[0].get_string(0, "device"), "Test GPU (Test Platform)");
  EXPECT_EQ(nodes[0].get_int(0, "devices"), 1);
  EXPECT_EQ(nodes[0].get_int(0, "ranks"), 2);
  EXPECT_EQ(nodes[0].get_int(0, "bytes"), 2 * 3 * 1000 * 8);
}

// ---- kernel sources ----

TEST(OclKernelSources, TheSeedsParametersReachTheSource) {
  OclStreamParams p;
  p.vector_count = 4;
  p.buffer_size = 512;
  p.unroll = 8;
  const std::string combined = stream_kernel_source(p);
  EXPECT_NE(combined.find("typedef double4 VT;"), std::string::npos);
  EXPECT_NE(combined.find("#define BUFFER_SIZE 512u"), std::string::npos);
  EXPECT_NE(combined.find("#pragma unroll 8"), std::string::npos);
  EXPECT_NE(combined.find("__local VT buf[BUFFER_SIZE];"), std::string::npos);
  EXPECT_NE(combined.find("cl_khr_fp64"), std::string::npos);
  EXPECT_EQ(combined.find("stream_triad"), std::string::npos);
  p.single_kernel = false;
  p.type = stream::StreamType::Float;
  const std::string separate = stream_kernel_source(p);
  EXPECT_NE(separate.find("__kernel void stream_triad"), std::string::npos);
  EXPECT_EQ(separate.find("__local"), std::string::npos);
  EXPECT_EQ(separate.find("cl_khr_fp64"), std::string::npos);
  EXPECT_NE(separate.find("typedef float4 VT;"), std::string::npos);
  EXPECT_EQ(stream_work_group_size(p, 256), 256u);
  EXPECT_EQ(stream_work_group_size(p, 0), 512u);

  EXPECT_EQ(bs_block_size(1024), 256u);
  EXPECT_EQ(bs_block_size(200), 128u);
  const std::string bs = bs_kernel_source(128, 512);
  for (const char* k : {kBsCopyKernel, kBsAxpyKernel, kBsNormKernel, kBsDotKernel, kBsCgKernel, kBsFinishKernel,
                        kBsGatherKernel, kBsScatterKernel, kBsEmptyKernel})
    EXPECT_NE(bs.find(std::string("__kernel void ") + k + "("), std::string::npos) << k;
  EXPECT_NE(bs.find("#define BLOCK 128"), std::string::npos);
}

TEST(OclBsCallShape, AReductionIsTwoLaunchesAndARead) {
  // Chalmers & Warburton's BS3-BS5 on a device: a partial-sum kernel, a finishing kernel,
  // the result read back; the others one kernel. T0 is timed on this shape.
  const BsCallShape one{1, false}, reduction{2, true};
  EXPECT_EQ(bs_call_shape(bs::BsTest::Copy), one);
  EXPECT_EQ(bs_call_shape(bs::BsTest::Axpy), one);
  EXPECT_EQ(bs_call_shape(bs::BsTest::Norm), reduction);
  EXPECT_EQ(bs_call_shape(bs::BsTest::Dot), reduction);
  EXPECT_EQ(bs_call_shape(bs::BsTest::CgUpdate), reduction);
  EXPECT_EQ(bs_call_shape(bs::BsTest::Gather), one);
  EXPECT_EQ(bs_call_shape(bs::BsTest::Scatter), one);
}

TEST(OclRateCeiling, ABsPointAboveTheCeilingFailsWithACheckNamingBoth) {
  bs::BsPoint fast;
  fast.bytes = 1000000000;        // 1e9 B
  fast.seconds = {1e-3, 2e-3};    // best 1 ms: 1e12 B/s
  fast.validation.passed = true;
  Table checks = make_checks_table();
  EXPECT_FALSE(bs::apply_bs_rate_ceiling(fast, 5e11, checks, "rank 0 (h) BS1 on ocl"));
  EXPECT_FALSE(fast.validation.passed);
  ASSERT_EQ(checks.rows(), 1u);
  EXPECT_EQ(checks.get_string(0, "check"), "bs.rate_ceiling");
  EXPECT_DOUBLE_EQ(checks.get_double(0, "measured"), 1e12);
  EXPECT_DOUBLE_EQ(checks.get_double(0, "upper"), 5e11);
  EXPECT_EQ(checks.get_int(0, "passed"), 0);

  bs::BsPoint fine = fast;
  fine.validation.passed = true;
  Table none = make_checks_table();
  EXPECT_TRUE(bs::apply_bs_rate_ceiling(fine, 1e12, none, "x"));  // equal passes
  EXPECT_TRUE(fine.validation.passed);
  EXPECT_EQ(none.rows(), 0u);

  bs::BsPoint zero = fast;
  zero.seconds = {0.0};
  EXPECT_FALSE(bs::apply_bs_rate_ceiling(zero, 1e14, none, "x"));  // a time of 0 is infinitely fast
}

TEST(OclErrors, CodesHaveTheirNames) {
  EXPECT_STREQ(cl_error_name(-5), "CL_OUT_OF_RESOURCES");
  EXPECT_STREQ(cl_error_name(-11), "CL_BUILD_PROGRAM_FAILURE");
  EXPECT_STREQ(cl_error_name(-61), "CL_INVALID_BUFFER_SIZE");
  EXPECT_STREQ(cl_error_name(12345), "CL_UNKNOWN_ERROR");
}

// ---- b_eff's device path payload ----

TEST(BeffDevicePayload, TheDeviceBodyAndTheStampsAreBothChecked) {
  for (std::uint64_t bytes : {8ull, 64ull, 5000ull, 70000ull}) {
    std::vector<std::byte> message(bytes);
    const beff::PayloadStamp stamp{3, 41, bytes, beff::Direction::Leftward};
    beff::fill_device_pattern(message.data(), bytes, 3, beff::Direction::Leftward);
    beff::stamp_message(message.data(), bytes, stamp);
    EXPECT_EQ(beff::check_device_message(message.data(), bytes, stamp), beff::PayloadProblem::None) << bytes;
    beff::PayloadStamp next = stamp;
    ++next.iteration;
    EXPECT_EQ(beff::check_device_message(message.data(), bytes, next), beff::PayloadProblem::Stale) << bytes;
    if (bytes < beff::kShortMessageBytes) continue;
    // A body byte the device copy lost (here: zero) is caught though the stamps are right.
    message[bytes / 2 + 3] = std::byte{0};
    message[bytes / 2 + 4] = std::byte{0};
    EXPECT_EQ(beff::check_device_message(message.data(), bytes, stamp), beff::PayloadProblem::Corrupted) << bytes;
    // Another sender's pattern under the right stamps: also caught.
    beff::fill_device_pattern(message.data(), bytes, 4, beff::Direction::Leftward);
    beff::stamp_message(message.data(), bytes, stamp);
    EXPECT_EQ(beff::check_device_message(message.data(), bytes, stamp), beff::PayloadProblem::Corrupted) << bytes;
  }
}

TEST(OclBuild, WithoutOpenClEveryDeviceUseIsAUsageError) {
  if (ocl_compiled_in()) GTEST_SKIP() << "this build has OpenCL";
  EXPECT_NE(usage_error_of([] { ocl_platforms("--tests ocl"); }).find("--tests ocl: this build of bwsurvey has no OpenCL"),
            std::string::npos);
  EXPECT_EQ(ocl_device_buffers_provider(), nullptr);
  // Asked for through the benchmarks' backend option: one line naming it.
  const auto topology = topo::Topology::synthetic("numa:1(memory=8GiB) pack:1 l3:1(size=8MiB) core:2 pu:1");
  const NodeContext node{topology, "n1", 0, 1, 0, 2, true, MachineSpeed{}, 0};
  const std::string e = usage_error_of([&] {
    stream::make_stream_benchmark(backends::stream_backends())
        ->plan(config_with({{"stream.backend", "cpu,ocl"}}), node);
  });
  EXPECT_EQ(e.rfind("--stream.backend ocl: this build of bwsurvey has no OpenCL", 0), 0u) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  EXPECT_EQ(usage_error_of([&] {
              bs::make_bs_benchmark(backends::bs_backends())->plan(config_with({{"bs.backend", "ocl"}}), node);
            }).rfind("--bs.backend ocl: this build of bwsurvey has no OpenCL", 0),
            0u);
}

}  // namespace
}  // namespace bws::ocl
