// The device as an axis of STREAM: --stream.backend runs each backend in
// turn into the one table, its rows named by the backend column. A backend
// made here (a "fake" device with transfers and fixed times) runs through
// STREAM's own driver without any change to lib/stream: what a new CUDA or
// SYCL backend would do. And cpu,ocl on a real OpenCL device, where there
// is one.
#include <gtest/gtest.h>

#include "TestSupport.hpp"

#include <map>
#include <string>

#include "backends/Backends.hpp"
#include "core/Config.hpp"
#include "ocl/OclRuntime.hpp"
#include "stream/StreamBenchmark.hpp"
#include "stream/StreamPlan.hpp"
#include "stream/StreamTables.hpp"
#include "topology/PinningPlan.hpp"
#include "topology/Team.hpp"
#include "topology/Topology.hpp"

namespace bws::stream {
namespace {

using test::config_with;

// Every operation takes 1 ms; the arrays always validate.
class FakeArrays final : public StreamDeviceArrays {
 public:
  std::string stores() const override { return ""; }
  std::string variant() const override { return "fake kernels"; }
  double run_timed(StreamOp, NodeSync& sync) override {
    sync.barrier();
    return 1e-3;
  }
  StreamValidation validate(int, const StreamValidationRule&) override {
    StreamValidation v;
    for (std::size_t i = 0; i < 3; ++i) {
      v.arrays[i].array = static_cast<StreamArray>(i);
      v.arrays[i].passed = true;
      v.arrays[i].limit = 1e-13;
    }
    return v;
  }
};

class FakeRun final : public StreamDeviceRun {
 public:
  std::string describe() const override { return "fake: one device"; }
  std::uint64_t memory_bytes() const override { return 0; }
  std::uint64_t elements(StreamType) const override { return 1000; }
  StreamDeviceInfo info(const topo::Team&) const override { return {"fake", "Fake Device", 3, 1e15, true}; }
  void prepare(topo::Team&) override {}
  StreamDeviceArrays& arrays(topo::Team&, StreamType) override { return arrays_; }
  void release() override {}

 private:
  FakeArrays arrays_;
};

class FakeBackend final : public StreamBackend {
 public:
  std::unique_ptr<StreamDeviceRun> plan(const Config&, const StreamOptions&, const NodeContext&,
                                        const StreamCommonParams&) const override {
    return std::make_unique<FakeRun>();
  }
};

// The results and nodes tables of one STREAM run on this machine's Team.
std::pair<Table, Table> run_stream(const StreamBackends& backends, const Config& config) {
  const topo::Topology topology = topo::Topology::discover();
  topo::Team team(topology, topo::make_pinning_plan(topology, 1, topo::BindPolicy::Compact));
  const NodeContext node{topology, "thishost", 0, 1, 0, team.size(), false, MachineSpeed{}, 0};
  const auto benchmark = make_stream_benchmark(backends);
  const auto planned = benchmark->plan(config, node);
  planned->prepare(team);
  NullProgress progress;
  NoNodeSync sync;
  RunContext context{progress, sync};
  std::vector<Table> tables = planned->run(team, context);
  planned->release();
  Table results;
  for (Table& t : tables)
    if (t.path() == kResultsPath) results = t;
  return {results, benchmark->summarize_node({results}).at(0)};
}

TEST(StreamBackends, EachBackendOfTheListRunsIntoTheOneTable) {
  const StreamBackends backends = {{"cpu", cpu_stream_backend()}, {"fake", std::make_shared<FakeBackend>()}};
  const auto [results, nodes] = run_stream(
      backends, config_with({{"stream.backend", "cpu,fake"}, {"stream.elements", "4096"}, {"stream.reps", "3"}}));
  ASSERT_EQ(results.rows(), 4u + 6u);  // the CPU's kernels, then the device's transfers and kernels
  for (std::size_t r = 0; r < 4; ++r) {
    EXPECT_EQ(results.get_string(r, "backend"), "cpu");
    EXPECT_EQ(results.get_int(r, "elements"), 4096);
  }
  const std::vector<std::string> labels = {"PCI_write", "Copy", "Scale", "Add", "Triad", "PCI_read"};
  const std::vector<int> weights = {3, 2, 2, 3, 3, 3};
  for (std::size_t i = 0; i < 6; ++i) {
    const std::size_t r = 4 + i;
    EXPECT_EQ(results.get_string(r, "backend"), "fake");
    EXPECT_EQ(results.get_string(r, "device"), "Fake Device");
    EXPECT_EQ(results.get_string(r, "variant"), "fake kernels");
    EXPECT_EQ(results.get_string(r, "kernel"), labels[i]);
    EXPECT_EQ(results.get_int(r, "threads"), 3);
    EXPECT_EQ(results.get_int(r, "bytes"), weights[i] * 1000 * 8);
    EXPECT_DOUBLE_EQ(results.get_double(r, "bandwidth"), weights[i] * 1000 * 8 / 1e-3);
    EXPECT_EQ(results.samples(r).size(), 3u);
    EXPECT_EQ(results.get_int(r, "valid"), 1);
  }
  ASSERT_EQ(nodes.rows(), 10u);
  EXPECT_EQ(nodes.get_string(4, "backend"), "fake");
  EXPECT_EQ(nodes.get_string(4, "device"), "Fake Device");
  EXPECT_EQ(nodes.get_string(0, "backend"), "cpu");
}

TEST(StreamBackends, AnUnknownBackendIsOneLineNamingTheOption) {
  const topo::Topology topology = topo::Topology::discover();
  const NodeContext node{topology, "thishost", 0, 1, 0, 1, false, MachineSpeed{}, 0};
  EXPECT_EQ(test::usage_error_of([&] {
              make_stream_benchmark(backends::stream_backends())->plan(config_with({{"stream.backend", "cpu,cuda"}}), node);
            }),
            "--stream.backend: unknown backend 'cuda'; allowed: a comma list of cpu, ocl");
}

TEST(StreamBackends, CpuAndOclRowsInOneTableOnARealDevice) {
  if (!ocl::ocl_compiled_in()) GTEST_SKIP() << "no OpenCL in this build";
  bool device = false;
  for (const ocl::OclPlatformInfo& p : ocl::ocl_platforms("test")) device = device || !p.devices.empty();
  if (!device) GTEST_SKIP() << "no OpenCL device";
  const auto [results, nodes] = run_stream(
      backends::stream_backends(),
      config_with({{"stream.backend", "cpu,ocl"}, {"stream.elements", "64K"}, {"stream.reps", "2"}}));
  ASSERT_EQ(results.rows(), 4u + 6u);
  std::map<std::string, int> rows_by_backend;
  for (std::size_t r = 0; r < results.rows(); ++r) {
    ++rows_by_backend[results.get_string(r, "backend")];
    EXPECT_EQ(results.get_int(r, "valid"), 1) << results.get_string(r, "backend") << " " << results.get_string(r, "kernel");
    EXPECT_EQ(results.get_int(r, "elements"), 65536);
  }
  EXPECT_EQ(rows_by_backend, (std::map<std::string, int>{{"cpu", 4}, {"ocl", 6}}));
  EXPECT_EQ(nodes.rows(), 10u);
}

}  // namespace
}  // namespace bws::stream
