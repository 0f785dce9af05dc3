// The worked-example benchmark (lib/load), through its catalog entry and its
// kernel table: bytes per kernel and the expected checksums worked out by hand, a corrupted element caught, the options'
// ranges named in one line, the node summary and the report from known
// samples, and a small run on a real Team.
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <cmath>
#include <utility>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/Config.hpp"
#include "core/ResultColumns.hpp"
#include "core/Sizes.hpp"
#include "load/LoadCatalogEntry.hpp"
#include "TestSupport.hpp"
#include "topology/PinningPlan.hpp"
#include "topology/Team.hpp"
#include "topology/Topology.hpp"

namespace bws::load {
namespace {

using test::usage_error_of;

const StreamingKernel& kernel(std::string_view name) {
  for (const StreamingKernel& k : streaming_kernels())
    if (k.name == name) return k;
  throw std::invalid_argument("no kernel " + std::string(name));
}

// A node of 24 GiB with a 32 MiB LLC, and the plan of rank 0 on it.
struct SyntheticNode {
  topo::Topology topology =
      topo::Topology::synthetic("numa:1(memory=24GiB) pack:1 l3:1(size=32MiB) l2:2(size=1MiB) core:2 pu:1");
  std::unique_ptr<PlannedRun> plan(const std::vector<std::pair<std::string, std::string>>& options = {},
                                   bool quick = false) const {
    Config config;
    for (const auto& [key, value] : options) config.set(key, value);
    return catalog_entry().make_benchmark()->plan(config, NodeContext{topology, "node1", 0, 1, 0, 2, quick, MachineSpeed{}, 0});
  }
};

TEST(LoadKernels, BytesPerPassAreEightPerDoubleReadOrWritten) {
  EXPECT_EQ(bytes_read(kernel("load"), 1000), 8000u);  // sum += a[i]
  EXPECT_EQ(bytes_written(kernel("load"), 1000), 0u);
  EXPECT_EQ(bytes_read(kernel("store"), 1000), 0u);  // a[i] = s, write-allocate not counted
  EXPECT_EQ(bytes_written(kernel("store"), 1000), 8000u);
  EXPECT_EQ(bytes_read(kernel("update"), 1000), 8000u);  // a[i] = s * a[i]
  EXPECT_EQ(bytes_written(kernel("update"), 1000), 8000u);
}

TEST(LoadKernels, ChecksumsFollowFromTheInitialValues) {
  // 1, 1.25, 1.5, 1.75, 1, 1.25
  EXPECT_EQ(expected_checksum(kernel("load"), 6, 10), 7.75);
  EXPECT_EQ(expected_checksum(kernel("load"), 4, 1), 5.5);
  EXPECT_EQ(expected_checksum(kernel("load"), 7, 1), 9.25);  // 5.5, then 1 + 1.25 + 1.5
  EXPECT_EQ(expected_checksum(kernel("store"), 10, 3), 30.0);  // every element 3
  EXPECT_EQ(expected_checksum(kernel("update"), 4, 3), -5.5);  // sign flipped three times
  EXPECT_EQ(expected_checksum(kernel("update"), 4, 2), 5.5);
}

TEST(LoadKernels, KernelsOnAPlainArray) {
  std::vector<double> a(1003);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = initial_value(0, i);
  EXPECT_EQ(a[0], 1.0);
  EXPECT_EQ(a[3], 1.75);
  double* x[] = {a.data()};
  // 250 groups of 5.5, then 1 + 1.25 + 1.5.
  EXPECT_EQ(kernel("load").loop(x, 0, a.size()), 250 * 5.5 + 3.75);
  EXPECT_EQ(kernel("load").loop(x, 1, 5), 1.25 + 1.5 + 1.75 + 1.0);  // a share that is not lane aligned
  EXPECT_EQ(kernel("update").loop(x, 0, a.size()), 0.0);
  EXPECT_EQ(a[2], -1.5);
  kernel("store").loop(x, 10, 20);
  EXPECT_EQ(a[9], -1.25);
  EXPECT_EQ(a[10], 3.0);
  EXPECT_EQ(a[19], 3.0);
  EXPECT_EQ(a[20], -1.0);
}

TEST(LoadPlan, DefaultsAutoAndQuick) {
  const SyntheticNode node;
  // 4x the 32 MiB LLC, in doubles; the three kernels of the worked example in table order.
  EXPECT_EQ(node.plan()->describe(), "load, store, update; 16777216 doubles (128.00 MiB, auto); 10 reps");
  EXPECT_EQ(node.plan()->memory_bytes(), 4u * 32 * 1024 * 1024);
  EXPECT_EQ(node.plan({}, true)->describe(), "load, store, update; 16777216 doubles (128.00 MiB, auto); 3 reps");
  const std::string given = node.plan({{"load.kernels", "update,load"}, {"load.elements", "5000"}}, true)->describe();
  EXPECT_EQ(given.rfind("load, update; 5000 doubles (", 0), 0u) << given;  // table order
  EXPECT_EQ(given.find("auto"), std::string::npos) << given;
  // A small LLC: at least 2^20 doubles; a small node: within 40% of its memory for its ranks.
  const topo::Topology tiny = topo::Topology::synthetic("numa:1(memory=16MiB) pack:1 l3:1(size=1MiB) core:2 pu:1");
  const std::string small = catalog_entry().make_benchmark()->plan(
      Config{}, NodeContext{tiny, "tiny", 0, 2, 0, 1, false, MachineSpeed{}, 0})->describe();
  EXPECT_NE(small.find(std::to_string(static_cast<std::uint64_t>(0.4 * 16 * 1024 * 1024 / (2 * 8.0))) + " doubles"),
            std::string::npos) << small;
}

TEST(LoadPlan, BadValuesNameTheOptionAndTheRangeInOneLine) {
  const SyntheticNode node;
  const auto error = [&](const char* key, const char* value) {
    return usage_error_of([&] { node.plan({{key, value}}); });
  };
  EXPECT_EQ(error("load.reps", "1"), "--load.reps: '1' is out of range; allowed: 2..1000 repetitions");
  EXPECT_EQ(error("load.reps", "many"), "--load.reps: 'many' is not a whole number; allowed: 2..1000 repetitions");
  EXPECT_EQ(error("load.kernels", "triad"),
            "--load.kernels: unknown kernel 'triad'; allowed: all, or a comma list of load, store, update, daxpy");
  EXPECT_EQ(error("load.elements", "100").rfind("--load.elements: '100' is out of range; allowed: 1024..", 0), 0u);
  // More than the node's 24 GiB: the range names what fits.
  const std::string too_big = error("load.elements", "4000000000");
  EXPECT_EQ(too_big, "--load.elements: '4000000000' is out of range; allowed: 1024.." +
                         std::to_string(UINT64_C(24) * 1024 * 1024 * 1024 / 8) +
                         " elements or auto (1 rank on the node, within its memory)");
  for (const std::string& message : {too_big, error("load.reps", "0")})
    EXPECT_EQ(message.find('\n'), std::string::npos);
}

Config config_with(const std::vector<std::pair<std::string, std::string>>& options) {
  Config config;
  for (const auto& [key, value] : options) config.set(key, value);
  return config;
}

// Rows for one rank from a measurement made up by hand.
std::vector<Table> rank_tables(int rank, const StreamingKernel& k, std::uint64_t n, std::vector<double> seconds,
                               double checksum) {
  Table results = make_load_results_table(), checks = make_checks_table();
  add_load_results(results, checks, {rank, "nodeA", 2}, n, static_cast<int>(seconds.size()),
                   {&k, std::move(seconds), checksum});
  return {std::move(results), std::move(checks)};
}

std::vector<Table> summarize_load_node(const std::vector<Table>& tables) {
  return catalog_entry().make_benchmark()->summarize_node(tables);
}

TEST(LoadResults, RowsAndTheNodeSummaryFromKnownSamples) {
  const std::uint64_t n = 1000;
  const double sum = expected_checksum(kernel("load"), n, 3);
  std::vector<Table> tables = rank_tables(0, kernel("load"), n, {1.0, 0.5, 0.25}, sum);
  const Table& results = tables[0];
  EXPECT_EQ(results.get_int(0, "bytes_read"), 8000);
  EXPECT_EQ(results.get_int(0, "bytes_written"), 0);
  EXPECT_EQ(results.get_int(0, "bytes"), 8000);
  EXPECT_EQ(results.get_double(0, "t_min"), 0.25);  // the warm-up (1.0) dropped
  EXPECT_EQ(results.get_double(0, "t_max"), 0.5);
  EXPECT_DOUBLE_EQ(results.get_double(0, "bandwidth"), 8000 / 0.25);
  EXPECT_EQ(results.get_int(0, "valid"), 1);
  EXPECT_EQ(tables[1].get_int(0, "passed"), 1);

  std::vector<Table> second = rank_tables(1, kernel("load"), n, {1.0, 0.4, 0.3}, sum);
  tables.insert(tables.end(), second.begin(), second.end());
  const std::vector<Table> nodes = summarize_load_node(tables);
  ASSERT_EQ(nodes.size(), 1u);
  ASSERT_EQ(nodes[0].rows(), 1u);
  EXPECT_EQ(nodes[0].path(), std::string(kNodesPath));
  EXPECT_EQ(nodes[0].get_int(0, "ranks"), 2);
  EXPECT_EQ(nodes[0].get_int(0, "threads"), 4);
  EXPECT_EQ(nodes[0].get_int(0, "bytes"), 16000);
  // Per pass the slower rank: 0.5, 0.3 after the warm-up; the best is 0.3.
  EXPECT_EQ(nodes[0].get_double(0, "t_min"), 0.3);
  EXPECT_EQ(nodes[0].get_double(0, "t_max"), 0.5);
  EXPECT_DOUBLE_EQ(nodes[0].get_double(0, "bandwidth"), 16000 / 0.3);

  const std::vector<std::string> lines = catalog_entry().make_report()->summary_lines(nodes);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_NE(lines[1].find("load"), std::string::npos);
  EXPECT_EQ(lines[1].find("store"), std::string::npos);  // only the kernels that ran
  EXPECT_NE(lines[2].find("nodeA"), std::string::npos);
  EXPECT_NE(lines[2].find("0.00"), std::string::npos);  // 16000 B / 0.3 s = 5.3e-5 GB/s
}

TEST(LoadResults, AWrongChecksumFailsTheRowAndTheCheck) {
  const std::vector<Table> tables =
      rank_tables(0, kernel("update"), 100, {1.0, 0.5}, expected_checksum(kernel("update"), 100, 2) + 0.25);
  EXPECT_EQ(tables[0].get_int(0, "valid"), 0);
  EXPECT_EQ(tables[1].get_string(0, "check"), "load.validation");
  EXPECT_EQ(tables[1].get_int(0, "passed"), 0);
  EXPECT_EQ(summarize_load_node(tables)[0].get_int(0, "valid"), 0);
}

// Two pinned threads (one on a one-core machine) and a context that
// neither reports nor waits.
struct SmallTeam {
  topo::Topology topology = topo::Topology::discover();
  int threads = std::min(2, topology.info().cores);
  topo::Team team{topology, topo::make_pinning_plan(topology, threads, topo::BindPolicy::Compact)};
  NullProgress progress;
  NoNodeSync sync;
  RunContext context{progress, sync};
};

TEST(LoadRun, ACorruptedElementIsCaughtOnTheTeam) {
  SmallTeam s;
  const std::size_t n = 100003;
  std::vector<double> a(n);
  double* x[] = {a.data()};
  initialize_on_team(s.team, x, 1, n);
  a[n / 2 + 7] = 0;  // one element lost
  const KernelMeasurement m = measure_on_team(s.team, s.context, x, n, kernel("load"), 3, nullptr);
  EXPECT_EQ(m.seconds.size(), 3u);
  EXPECT_NE(m.checksum, expected_checksum(kernel("load"), n, 3));
  EXPECT_EQ(m.checksum, expected_checksum(kernel("load"), n, 3) - initial_value(0, n / 2 + 7));
  Table results = make_load_results_table(), checks = make_checks_table();
  add_load_results(results, checks, {0, "here", s.threads}, n, 3, m);
  EXPECT_EQ(results.get_int(0, "valid"), 0);
  EXPECT_EQ(checks.get_int(0, "passed"), 0);
}

TEST(LoadRun, EndToEndSmallRunIsValid) {
  SmallTeam s;
  const NodeContext node{s.topology, "thishost", 0, 1, 0, s.threads, true, MachineSpeed{}, 0};
  const auto benchmark = catalog_entry().make_benchmark();
  EXPECT_EQ(benchmark->name(), "load");
  Config config;
  config.set("load.elements", "100000");
  const auto planned = benchmark->plan(config, node);
  EXPECT_EQ(planned->memory_bytes(), 800000u);
  planned->prepare(s.team);
  const std::vector<Table> tables = planned->run(s.team, s.context);
  planned->release();
  ASSERT_EQ(tables.size(), 2u);
  const Table& results = tables[0];
  ASSERT_EQ(results.rows(), 3u);
  const std::vector<std::int64_t> read = {800000, 0, 800000}, written = {0, 800000, 800000};
  const std::vector<double> checksums = {25000 * 5.5, 3.0 * 100000, -25000 * 5.5};  // 3 passes (--quick)
  for (std::size_t r = 0; r < 3; ++r) {
    EXPECT_EQ(results.get_int(r, "valid"), 1) << r;
    EXPECT_EQ(results.get_int(r, "bytes_read"), read[r]) << r;
    EXPECT_EQ(results.get_int(r, "bytes_written"), written[r]) << r;
    EXPECT_EQ(results.get_double(r, "checksum"), checksums[r]) << r;
    EXPECT_EQ(results.samples(r).size(), 3u);
    EXPECT_GT(results.get_double(r, "bandwidth"), 0);
  }
  EXPECT_EQ(tables[1].rows(), 3u);  // one check per kernel
  const std::vector<Table> nodes = benchmark->summarize_node(tables);
  ASSERT_EQ(nodes.size(), 1u);
  EXPECT_EQ(nodes[0].rows(), 3u);
}

// The kernel added as one row of LoadKernels.cpp (docs/ARCHITECTURE.md,
// "Adding a streaming kernel"): its bytes and checksums worked out by hand.
TEST(LoadDaxpy, BytesAndChecksumsByHand) {
  const StreamingKernel& daxpy = kernel("daxpy");
  EXPECT_EQ(bytes_read(daxpy, 1000), 16000u);    // a[i] and b[i]: 2 x 8 B per element
  EXPECT_EQ(bytes_written(daxpy, 1000), 8000u);  // b[i]: 8 B per element
  // a = 1, 1.25, 1.5, 1.75 (sum 5.5), b = 2, 2.25, 2.5, 2.75 (sum 9.5); each
  // pass adds 0.5 a to b; the checksum is the sum of both arrays.
  EXPECT_EQ(expected_checksum(daxpy, 4, 2), 5.5 + 9.5 + 2 * 0.5 * 5.5);
  // Six elements: a sums to 5.5 + 1 + 1.25 = 7.75, b to 9.5 + 2 + 2.25 = 13.75.
  EXPECT_EQ(expected_checksum(daxpy, 6, 3), 33.125);  // 7.75 + 13.75 + 3 x 0.5 x 7.75
  std::vector<double> a = {1, 1.25, 1.5}, b = {2, 2.25, 2.5};
  double* x[] = {a.data(), b.data()};
  EXPECT_EQ(daxpy.loop(x, 1, 3), 0.0);
  EXPECT_EQ(b, (std::vector<double>{2, 2.875, 3.25}));  // element 0 outside the share
  EXPECT_EQ(a, (std::vector<double>{1, 1.25, 1.5}));
}

TEST(LoadDaxpy, RunsOnTheTeamThroughTheGenericPaths) {
  SmallTeam s;
  const NodeContext node{s.topology, "thishost", 0, 1, 0, s.threads, true, MachineSpeed{}, 0};
  const auto benchmark = catalog_entry().make_benchmark();
  Config config;
  config.set("load.kernels", "daxpy");
  config.set("load.elements", "100000");
  const auto planned = benchmark->plan(config, node);
  EXPECT_EQ(planned->describe(), "daxpy; 2 arrays of 100000 doubles (781.25 KiB); 3 reps");
  EXPECT_EQ(planned->memory_bytes(), 2u * 8 * 100000);
  planned->prepare(s.team);
  const std::vector<Table> tables = planned->run(s.team, s.context);
  planned->release();
  const Table& results = tables[0];
  ASSERT_EQ(results.rows(), 1u);
  EXPECT_EQ(results.get_string(0, "kernel"), "daxpy");
  EXPECT_EQ(results.get_int(0, "bytes_read"), 1600000);
  EXPECT_EQ(results.get_int(0, "bytes_written"), 800000);
  // 25000 periods of a (5.5) and of b after 3 passes (9.5 + 1.5 x 5.5).
  EXPECT_EQ(results.get_double(0, "checksum"), 25000 * (5.5 + 9.5 + 1.5 * 5.5));
  EXPECT_EQ(results.get_int(0, "valid"), 1);
  EXPECT_EQ(tables[1].get_int(0, "passed"), 1);
  const std::vector<Table> nodes = benchmark->summarize_node(tables);
  ASSERT_EQ(nodes.size(), 1u);
  EXPECT_EQ(nodes[0].get_string(0, "kernel"), "daxpy");
  const std::vector<std::string> lines = catalog_entry().make_report()->summary_lines(nodes);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].rfind("load (likwid-bench daxpy): ", 0), 0u) << lines[0];
  // Two arrays: on a small node each holds half what one would.
  const topo::Topology tiny = topo::Topology::synthetic("numa:1(memory=16MiB) pack:1 l3:1(size=1MiB) core:2 pu:1");
  const std::string small =
      benchmark->plan(config_with({{"load.kernels", "all"}}), NodeContext{tiny, "tiny", 0, 2, 0, 1, false, MachineSpeed{}, 0})
          ->describe();
  EXPECT_EQ(small, "load, store, update, daxpy; 2 arrays of " +
                       std::to_string(static_cast<std::uint64_t>(0.4 * 16 * 1024 * 1024 / (2 * 8.0 * 2))) +
                       " doubles (" + format_bytes(8.0 * 209715) + ", auto); 10 reps");
}

}  // namespace
}  // namespace bws::load
