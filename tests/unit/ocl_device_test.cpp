// The OpenCL backend on a real device (PoCL in CI: OpenCL on the CPU):
// device STREAM gives HPCC_FPGA's golden values, BS1-BS7 give the CPU
// backend's results bit for bit on the same inputs, every point validates,
// a kernel that does not build shows its log, errors name the OpenCL call,
// and b_eff's device buffers round-trip. Skipped where the build has no
// OpenCL or no device is present. PoCL compiles each kernel with LLVM on
// first use; ctest points POCL_CACHE_DIR into the build tree, so later runs
// reuse the binaries.
#include <gtest/gtest.h>

#include "TestSupport.hpp"

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "bs/BsKernels.hpp"
#include "bs/BsMesh.hpp"
#include "bs/BsPlan.hpp"
#include "bs/BsTeamJobs.hpp"
#include "core/Config.hpp"
#include "core/Errors.hpp"
#include "core/RunContext.hpp"
#include "backends/Backends.hpp"
#include "bs/BsBenchmark.hpp"
#include "ocl/OclOptions.hpp"
#include "ocl/OclRuntime.hpp"
#include "ocl/OclSelection.hpp"
#include "ocl/OclStreamPlan.hpp"
#include "stream/StreamBenchmark.hpp"
#include "stream/StreamPlan.hpp"
#include "topology/PinningPlan.hpp"
#include "topology/Team.hpp"
#include "topology/Topology.hpp"
#if BWS_HAVE_OPENCL
#include "ocl/cl/OclCl.hpp"
#endif

namespace bws::ocl {
namespace {

using test::config_with;
using test::usage_error_of;

// The first device, or nullopt (the test then skips).
std::optional<OclDeviceInfo> first_device() {
  if (!ocl_compiled_in()) return std::nullopt;
  for (const OclPlatformInfo& p : ocl_platforms("test"))
    if (!p.devices.empty()) return p.devices.front();
  return std::nullopt;
}

#define REQUIRE_DEVICE(device)                                                   \
  const std::optional<OclDeviceInfo> device = first_device();                    \
  if (!device) GTEST_SKIP() << "no OpenCL in this build, or no OpenCL device";

class NoSync final : public NodeSync {
 public:
  void barrier() override {}
};

OclStreamParams small_stream(int /*reps: the driver's, not the device plan's*/) {
  OclStreamParams p;
  p.elements = 4096;
  p.buffer_size = 256;
  return p;
}

// ---- STREAM: HPCC_FPGA's golden values ----

// ntimes repetitions of the six operations as STREAM's driver runs them;
// the samples per operation.
std::vector<std::vector<double>> run_repetitions(stream::StreamDeviceArrays& arrays, int ntimes, NodeSync& sync) {
  std::vector<std::vector<double>> seconds(stream::kStreamOps);
  for (int k = 0; k < ntimes; ++k)
    for (const stream::StreamOpSpec& op : stream::kStreamOpSpecs)
      seconds[static_cast<std::size_t>(op.op)].push_back(arrays.run_timed(op.op, sync));
  return seconds;
}

// Every element equal to its golden value: the expected values are the
// golden ones, and an average relative error of at most 1e-300 allows none.
void expect_values(stream::StreamDeviceArrays& arrays, stream::StreamType type, int ntimes, double a, double b,
                   double c, const std::string& what) {
  const stream::StreamExpected e = type == stream::StreamType::Float ? stream::stream_expected_values<float>(ntimes)
                                                                      : stream::stream_expected_values<double>(ntimes);
  EXPECT_EQ(e.a, a) << what;
  EXPECT_EQ(e.b, b) << what;
  EXPECT_EQ(e.c, c) << what;
  const stream::StreamValidation exact = arrays.validate(ntimes, stream::StreamValidationRule{1e-300});
  EXPECT_TRUE(exact.passed()) << what;
  for (const stream::ArrayValidation& v : exact.arrays) EXPECT_EQ(v.avg_rel_error, 0) << what;
}

TEST(OclDeviceStream, GoldenValuesAfterOneAndThreeRepetitions) {
  REQUIRE_DEVICE(device);
  const auto opened = open_ocl_device(*device);
  NoSync sync;
  // A=1, B=2, C=0; the untimed test run doubles A; scalar 3.
  for (int ntimes : {1, 3}) {
    std::vector<std::pair<std::string, OclStreamParams>> variants;
    variants.emplace_back("combined", small_stream(ntimes));
    OclStreamParams replicated = small_stream(ntimes);
    replicated.replications = 2;
    replicated.vector_count = 4;
    replicated.buffer_size = 64;
    replicated.unroll = 4;
    variants.emplace_back("2 replications x double4 x 64, unroll 4", replicated);
    OclStreamParams separate = small_stream(ntimes);
    separate.single_kernel = false;
    variants.emplace_back("separate kernels", separate);
    OclStreamParams single = small_stream(ntimes);
    single.type = stream::StreamType::Float;
    variants.emplace_back("float", single);
    for (const auto& [what, params] : variants) {
      const std::string label = what + ", ntimes " + std::to_string(ntimes);
      const auto arrays = make_ocl_stream_arrays(opened, params);
      const auto seconds = run_repetitions(*arrays, ntimes, sync);
      if (ntimes == 1)
        expect_values(*arrays, params.type, ntimes, 30, 6, 8, label);
      else
        expect_values(*arrays, params.type, ntimes, 6750, 1350, 1800, label);
      for (const auto& s : seconds) EXPECT_EQ(s.size(), static_cast<std::size_t>(ntimes)) << label;
      // The CPU backend's rule: STREAM 5.10's 1e-6 (float), 1e-13 (double).
      EXPECT_EQ(arrays->validate(ntimes, {}).arrays[0].limit, params.type == stream::StreamType::Float ? 1e-6 : 1e-13);
    }
  }
}

// ---- BS1-BS7: the CPU backend's results on the same inputs ----

struct TeamFixture {
  topo::Topology topology = topo::Topology::discover();
  topo::Team team{topology, topo::make_pinning_plan(topology, std::min(2, topology.info().cores),
                                                    topo::BindPolicy::Compact)};
};

TEST(OclDeviceBs, ResultsEqualTheCpuBackendsOnTheSameInputs) {
  REQUIRE_DEVICE(device);
  TeamFixture f;
  const auto runner = make_ocl_bs_runner(open_ocl_device(*device), 100003);
  for (std::uint64_t n : {1ull, 1001ull, 100003ull}) {
    for (bs::BsTest t : {bs::BsTest::Copy, bs::BsTest::Axpy, bs::BsTest::Norm, bs::BsTest::Dot, bs::BsTest::CgUpdate}) {
      const std::string what = std::string(bs::bs_spec(t).label) + " n=" + std::to_string(n);
      std::vector<std::vector<double>> cpu(4, std::vector<double>(n));
      bs::BsVectorArrays x;
      for (int k = 0; k < 4; ++k) x.a[k] = cpu[static_cast<std::size_t>(k)].data();
      bs::bs_init_vectors(f.team, t, x, n);
      const double cpu_scalar = bs::bs_vector_once(f.team, t, x, n);
      const BsVectorOutputs device_out = runner->vector_once(t, n);
      ASSERT_EQ(device_out.arrays.size(), static_cast<std::size_t>(bs::bs_spec(t).arrays)) << what;
      for (std::size_t k = 0; k < device_out.arrays.size(); ++k) EXPECT_EQ(device_out.arrays[k], cpu[k]) << what << " array " << k;
      // Dyadic inputs: every partial sum is exact, so the order of summation does not matter.
      EXPECT_EQ(device_out.scalar, cpu_scalar) << what;
    }
  }
  for (const auto& [k, degree, masked] : {std::tuple{3, 2, false}, std::tuple{2, 3, true}, std::tuple{4, 1, false}}) {
    const std::string what = "K=" + std::to_string(k) + " N=" + std::to_string(degree) + (masked ? " masked" : "");
    const bs::HexMesh mesh = bs::make_hex_mesh(k, degree, masked);
    const bs::GatherCsr csr = bs::make_gather_csr(mesh);
    const bs::BsMeshLayout layout = bs::mesh_layout(mesh.global_nodes, mesh.local_nodes);
    std::vector<double> storage(layout.total / sizeof(double) + 1);
    const bs::BsMeshOnTeam placed =
        bs::bs_place_mesh(f.team, mesh, csr, reinterpret_cast<unsigned char*>(storage.data()));
    bs::bs_gather_once(f.team, placed);
    const std::vector<double> cpu_x_G(placed.x_G, placed.x_G + mesh.global_nodes);
    bs::bs_scatter_once(f.team, placed);
    const std::vector<double> cpu_x_L(placed.x_L, placed.x_L + mesh.local_nodes);
    const BsMeshOutputs device_out = runner->gather_scatter_once(mesh, csr);
    EXPECT_EQ(device_out.x_G, cpu_x_G) << "BS6 " << what;
    EXPECT_EQ(device_out.x_L, cpu_x_L) << "BS7 " << what;
  }
}

TEST(OclDeviceBs, EveryPointValidatesAndTimesItsRuns) {
  REQUIRE_DEVICE(device);
  const auto runner = make_ocl_bs_runner(open_ocl_device(*device), 4096);
  NoSync sync;
  // T0 of each call shape: a positive, finite time (never asserted against a clock).
  for (bs::BsTest t : {bs::BsTest::Copy, bs::BsTest::Norm, bs::BsTest::Dot, bs::BsTest::CgUpdate, bs::BsTest::Gather}) {
    const double T0 = runner->empty_call_seconds(t, 5);
    EXPECT_GT(T0, 0) << bs::bs_spec(t).label;
    EXPECT_TRUE(std::isfinite(T0)) << bs::bs_spec(t).label;
  }
  for (bs::BsTest t : {bs::BsTest::Copy, bs::BsTest::Axpy, bs::BsTest::Norm, bs::BsTest::Dot, bs::BsTest::CgUpdate}) {
    const bs::BsPoint p = runner->vector_point(t, 4096, 2, sync);
    EXPECT_TRUE(p.validation.passed) << bs::bs_spec(t).label << ": " << p.validation.what;
    EXPECT_EQ(p.seconds.size(), 2u);
    EXPECT_EQ(p.bytes, bs::vector_test_bytes(t, 4096));
  }
  for (bool masked : {false, true}) {
    const bs::HexMesh mesh = bs::make_hex_mesh(3, 3, masked);
    const bs::GatherCsr csr = bs::make_gather_csr(mesh);
    for (bs::BsTest t : {bs::BsTest::Gather, bs::BsTest::Scatter}) {
      const bs::BsPoint p = runner->mesh_point(t, mesh, csr, 2);
      EXPECT_TRUE(p.validation.passed) << bs::bs_spec(t).label << ": " << p.validation.what;
      EXPECT_EQ(p.global_nodes, mesh.global_nodes);
      EXPECT_EQ(p.blocks, csr.blocks());
      // The CPU backend's count, by hand (K=3, N=3): unmasked Ng 1000, Nt = Nu = 1728;
      // masked Ng 512, Nt 1728, Nu 1000 (bs_test's MeasuredMeshPointsCountTheUnmaskedBytes).
      const bool gather = t == bs::BsTest::Gather;
      const std::uint64_t expected = masked ? (gather ? 18148u : 19008u)   // 513*4+1000*12+512*8; 1728*4+512*8+1000*8
                                            : (gather ? 32740u : 28736u);  // 1001*4+1728*12+1000*8; 1728*4+1000*8+1728*8
      EXPECT_EQ(p.bytes, expected) << bs::bs_spec(t).label << " masked=" << masked;
    }
  }
  EXPECT_THROW(runner->vector_once(bs::BsTest::Copy, 4097), RuntimeFailure);
}

// ---- the whole benchmark, small ----

TEST(OclDeviceRun, StreamAndBsRowsAreValidAndTagged) {
  REQUIRE_DEVICE(device);
  TeamFixture f;
  const NodeContext node{f.topology, "thishost", 0, 1, 0, f.team.size(), false, MachineSpeed{}, 0};
  const Config config =
      config_with({{"stream.elements", "64K"}, {"stream.reps", "2"}, {"bs.max-bytes", "256K"},
                   {"bs.fit-min-bytes", "0"}, {"bs.points", "4"}, {"bs.reps", "2"},
                   {"bs.degrees", "1,2"}, {"stream.backend", "ocl"}, {"bs.backend", "ocl"}});
  const auto stream_benchmark = stream::make_stream_benchmark(backends::stream_backends());
  NullProgress progress;
  NoSync sync;
  RunContext context{progress, sync};
  std::vector<Table> tables, checks_tables;
  for (const auto& planned : {stream_benchmark->plan(config, node),
                              bs::make_bs_benchmark(backends::bs_backends())->plan(config, node)}) {
    planned->prepare(f.team);
    for (Table& t : planned->run(f.team, context)) (t.path() == "checks" ? checks_tables : tables).push_back(std::move(t));
    planned->release();
  }
  std::map<std::string, const Table*> by_path;
  for (const Table& t : tables) by_path[t.path()] = &t;
  ASSERT_TRUE(by_path.count("stream/results") && by_path.count("bs/results") && by_path.count("bs/fits") &&
              by_path.count("ocl/devices") && checks_tables.size() == 2);
  const Table& stream = *by_path["stream/results"];
  ASSERT_EQ(stream.rows(), 6u);
  for (std::size_t r = 0; r < stream.rows(); ++r) {
    EXPECT_EQ(stream.get_int(r, "valid"), 1) << stream.get_string(r, "kernel");
    EXPECT_EQ(stream.get_string(r, "backend"), "ocl");
    EXPECT_EQ(stream.get_string(r, "device"), device->label());
  }
  const Table& fits = *by_path["bs/fits"];
  EXPECT_EQ(fits.rows(), 5u + 2 * 2);
  for (std::size_t r = 0; r < fits.rows(); ++r) {
    EXPECT_EQ(fits.get_string(r, "backend"), "ocl");
    EXPECT_EQ(fits.get_int(r, "valid"), 1);
  }
  int validations = 0;
  for (const Table& checks : checks_tables)
    for (std::size_t r = 0; r < checks.rows(); ++r) {
      if (checks.get_string(r, "kind") != "validation") continue;  // a bs.fit warning on a too short sweep is no error
      ++validations;
      EXPECT_EQ(checks.get_int(r, "passed"), 1) << checks.get_string(r, "check") << ": " << checks.get_string(r, "subject");
    }
  EXPECT_GE(validations, 3 + 6 + 5 * 4);  // STREAM arrays, STREAM rates, every BS1-BS5 size
  const std::vector<std::string> lines =
      stream::make_stream_report()->summary_lines(stream_benchmark->summarize_node({stream}));
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines.front().find("STREAM double on ocl"), std::string::npos) << lines.front();
}

TEST(OclDeviceRun, ALengthOffTheBlocksIsRefusedBeforeAnythingRuns) {
  REQUIRE_DEVICE(device);
  TeamFixture f;
  const NodeContext node{f.topology, "thishost", 0, 1, 0, 1, false, MachineSpeed{}, 0};
  const auto on_ocl = [&](std::map<std::string, std::string> values) {
    values["stream.backend"] = "ocl";
    stream::make_stream_benchmark(backends::stream_backends())->plan(config_with(values), node);
  };
  const std::string e = usage_error_of([&] { on_ocl({{"stream.elements", "100000"}}); });
  EXPECT_NE(e.find("--stream.elements 100000: not a multiple of replications x vector-count x buffer-size = 1 x 1 x 4096 "
                   "= 4096"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("nearest valid lengths: 98304 and 102400"), std::string::npos) << e;
  EXPECT_NE(usage_error_of([&] { on_ocl({{"ocl.device", "99"}}); })
                .find("--ocl.device: 99 is out of range"),
            std::string::npos);
}

// ---- errors name the OpenCL call ----

TEST(OclDeviceErrors, AKernelThatDoesNotBuildShowsItsLogAndCallsNameTheirCode) {
  REQUIRE_DEVICE(device);
#if BWS_HAVE_OPENCL
  const auto opened = open_ocl_device(*device);
  const auto& dev = static_cast<const OclClDevice&>(*opened);
  try {
    build_program(dev.context(), dev.device(), "__kernel void broken(__global int* x) { x[0] = undeclared_name; }",
                  "test");
    ADD_FAILURE() << "a broken kernel built";
  } catch (const RuntimeFailure& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("clBuildProgram: CL_BUILD_PROGRAM_FAILURE (-11)"), std::string::npos) << what;
    EXPECT_NE(what.find("build log:"), std::string::npos) << what;
    EXPECT_NE(what.find("undeclared_name"), std::string::npos) << what;
  }
  try {
    cl_checked("making an empty buffer", [&] { return cl::Buffer(dev.context(), CL_MEM_READ_WRITE, 0); });
    ADD_FAILURE() << "a buffer of 0 bytes was made";
  } catch (const RuntimeFailure& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("clCreateBuffer: CL_INVALID_BUFFER_SIZE (-61) while making an empty buffer"), std::string::npos)
        << what;
  }
#endif
}

// ---- b_eff's device buffers ----

TEST(OclDeviceBuffers, MessagesRoundTripThroughTheDevice) {
  REQUIRE_DEVICE(device);
  const auto provider = ocl_device_buffers_provider();
  ASSERT_NE(provider, nullptr);
  const DeviceBuffersRequest request{4, 10000, 0, 1};
  EXPECT_EQ(provider->check(Config{}, request), device->label());
  const auto buffers = provider->open(Config{}, request);
  EXPECT_EQ(buffers->capacity_bytes(), 10000u);
  std::vector<std::byte> out(10000), in(10000);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<std::byte>(i * 7 + 3);
  buffers->write(2, out.data(), out.size());
  buffers->read(2, in.data(), in.size());
  EXPECT_EQ(in, out);
  const DeviceBuffersRequest huge{4, device->max_allocation_bytes + 1, 0, 1};
  EXPECT_NE(usage_error_of([&] { provider->check(Config{}, huge); }).find("--beff.max-bytes"), std::string::npos);
}

}  // namespace
}  // namespace bws::ocl
