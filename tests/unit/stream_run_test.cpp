// STREAM (lib/stream): an end-to-end run on this machine's Team, the node
// summary and the report.
#include <gtest/gtest.h>

#include "TestSupport.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/Config.hpp"
#include "core/Errors.hpp"
#include "core/ResultColumns.hpp"
#include "core/RunContext.hpp"
#include "stream/StreamBenchmark.hpp"
#include "stream/StreamKernelTable.hpp"
#include "stream/StreamKernels.hpp"
#include "stream/StreamLayout.hpp"
#include "stream/StreamPlan.hpp"
#include "stream/StreamTables.hpp"
#include "stream/StreamValidation.hpp"
#include "topology/PinningPlan.hpp"
#include "topology/Team.hpp"
#include "topology/Topology.hpp"

namespace bws::stream {
namespace {

Config config_with(std::map<std::string, std::string> values) {
  Config config;
  for (auto& [k, v] : values) config.set(k, v);
  return config;
}

// ---- end to end on this machine ----

class RecordingProgress final : public Progress {
 public:
  void report(std::string_view stage, double fraction) override {
    stages.emplace_back(stage);
    fractions.push_back(fraction);
  }
  std::vector<std::string> stages;
  std::vector<double> fractions;
};

class CountingNodeSync final : public NodeSync {
 public:
  void barrier() override { ++calls; }
  int calls = 0;
};

TEST(StreamRun, EndToEndOnThisMachinesTeam) {
  const topo::Topology topology = topo::Topology::discover();
  const int threads = std::min(2, topology.info().cores);
  topo::Team team(topology, topo::make_pinning_plan(topology, threads, topo::BindPolicy::Compact));
  const NodeContext node{topology, "thishost", 3, 1, 0, threads, false, MachineSpeed{}, 0};

  for (const char* stores : {"normal", "nontemporal"}) {
    if (std::string(stores) == "nontemporal" && !kHaveNontemporalKernels) continue;
    const auto benchmark = make_stream_benchmark();
    EXPECT_EQ(benchmark->name(), "stream");
    const Config config = config_with(
        {{"stream.elements", "100000"}, {"stream.reps", "3"}, {"stream.type", "both"}, {"stream.stores", stores}});
    const auto planned = benchmark->plan(config, node);
    EXPECT_GE(planned->memory_bytes(), 3u * 100000 * 8);
    planned->prepare(team);
    RecordingProgress progress;
    CountingNodeSync sync;
    RunContext context{progress, sync};
    const auto started = std::chrono::steady_clock::now();
    const std::vector<Table> tables = planned->run(team, context);
    const double run_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    planned->release();

    EXPECT_EQ(sync.calls, 2 * 3 * 4);  // per type, repetition and kernel
    ASSERT_FALSE(progress.fractions.empty());
    EXPECT_DOUBLE_EQ(progress.fractions.back(), 1.0);
    EXPECT_EQ(progress.stages.front(), "stream double");
    EXPECT_EQ(progress.stages.back(), "stream float");

    ASSERT_EQ(tables.size(), 2u);
    const Table& results = tables[0];
    EXPECT_EQ(results.path(), "stream/results");
    EXPECT_EQ(results.samples_path(), "stream/times");
    ASSERT_EQ(results.rows(), 8u);
    for (std::size_t r = 0; r < results.rows(); ++r) {
      const std::string what = results.get_string(r, "type") + " " + results.get_string(r, "kernel");
      EXPECT_EQ(results.get_string(r, "kernel"), kStreamKernels[r % 4].label);
      EXPECT_EQ(results.get_string(r, "type"), r < 4 ? "double" : "float");
      EXPECT_EQ(results.get_string(r, "stores"), stores);
      EXPECT_EQ(results.get_string(r, "backend"), "cpu");
      EXPECT_EQ(results.get_string(r, "host"), "thishost");
      EXPECT_EQ(results.get_int(r, "rank"), 3);
      EXPECT_EQ(results.get_int(r, "threads"), threads);
      EXPECT_EQ(results.get_int(r, "elements"), 100000);
      EXPECT_EQ(results.get_int(r, "reps"), 3);
      EXPECT_EQ(results.get_int(r, "valid"), 1) << what;
      EXPECT_EQ(results.get_double(r, "avg_rel_error"), 0) << what;
      const std::size_t size = r < 4 ? 8 : 4;
      EXPECT_EQ(results.get_int(r, "bytes"),
                static_cast<std::int64_t>(kStreamKernels[r % 4].byte_weight * 100000 * size));
      ASSERT_EQ(results.samples(r).size(), 3u);
      const double t_min = results.get_double(r, "t_min");
      EXPECT_EQ(t_min, std::min(results.samples(r)[1], results.samples(r)[2]));
      EXPECT_LE(t_min, results.get_double(r, "t_avg"));
      EXPECT_LE(results.get_double(r, "t_avg"), results.get_double(r, "t_max"));
      const double bw = results.get_double(r, "bandwidth");
      EXPECT_DOUBLE_EQ(bw, results.get_int(r, "bytes") / t_min);
      // No fixed floor (a loaded machine measures anything): the best
      // repetition fits in the whole run, so its rate is at least bytes
      // over the run's time; a unit slip (us for s) breaks that.
      EXPECT_GE(bw, results.get_int(r, "bytes") / run_seconds) << what;
      EXPECT_LT(bw, threads * 1e12) << what;  // the rate ceiling
    }
    const Table& checks = tables[1];
    EXPECT_EQ(checks.path(), kChecksPath);
    ASSERT_EQ(checks.rows(), 2u * (3 + 4));  // per type: 3 arrays, 4 rate ceilings
    for (std::size_t r = 0; r < checks.rows(); ++r) {
      EXPECT_EQ(checks.get_int(r, "passed"), 1) << checks.get_string(r, "subject");
      EXPECT_EQ(checks.get_string(r, "kind"), "validation");
    }
    EXPECT_EQ(checks.get_string(0, "check"), "stream.validation");
    EXPECT_EQ(checks.get_string(0, "subject"), "rank 3 (thishost) double array a");
    EXPECT_EQ(checks.get_double(0, "upper"), 1e-13);
    EXPECT_EQ(checks.get_string(3, "check"), "stream.rate_ceiling");

    // One rank's tables summarise to the node with the same figures.
    const std::vector<Table> node = benchmark->summarize_node(tables);
    ASSERT_EQ(node.size(), 1u);
    ASSERT_EQ(node[0].rows(), 8u);
    EXPECT_DOUBLE_EQ(node[0].get_double(3, "bandwidth"), results.get_double(3, "bandwidth"));
  }
}

// ---- node summary ----

void add_rank_row(Table& t, int rank, const char* kernel, std::int64_t bytes, std::vector<double> samples,
                  bool valid = true) {
  const double t_min = *std::min_element(samples.begin() + 1, samples.end());
  t.add_row({{"rank", rank},
             {"host", "n01"},
             {"backend", "cpu"},
             {"kernel", kernel},
             {"threads", 2},
             {"device", "cpu"},
             {"type", "double"},
             {"stores", "nontemporal"},
             {"variant", ""},
             {"elements", 1000},
             {"reps", static_cast<int>(samples.size())},
             {"avg_rel_error", 0.0},
             {"error_limit", 1e-13},
             {"ceiling", 2e12},
             {"bytes", bytes},
             {"t_min", t_min},
             {"t_avg", 0.0},
             {"t_max", 0.0},
             {"bandwidth", bytes / t_min},
             {"valid", valid}},
            std::move(samples));
}

TEST(StreamNodeSummary, NodeTimeIsTheSlowestRankPerRepetition) {
  Table rank0 = make_stream_results_table(), rank1 = make_stream_results_table();
  add_rank_row(rank0, 0, "Copy", 16000, {9.0, 1.0, 2.0, 3.0});
  add_rank_row(rank0, 0, "Triad", 24000, {9.0, 4.0, 4.0, 4.0});
  add_rank_row(rank1, 1, "Copy", 16000, {0.5, 2.0, 1.5, 2.5});
  add_rank_row(rank1, 1, "Triad", 24000, {9.0, 3.0, 5.0, 2.0}, false);
  Table unrelated = make_checks_table();
  add_check(unrelated, {"x", "y", "validation", 0, 0, 0, 0, "", false});

  const auto benchmark = make_stream_benchmark();
  const std::vector<Table> out = benchmark->summarize_node({rank0, unrelated, rank1});
  ASSERT_EQ(out.size(), 1u);
  const Table& n = out[0];
  EXPECT_EQ(n.path(), "stream/nodes");
  ASSERT_EQ(n.rows(), 2u);

  // Copy: node times max(1,2)=2, max(2,1.5)=2, max(3,2.5)=3 (the warm-up 9 is dropped).
  EXPECT_EQ(n.get_string(0, "kernel"), "Copy");
  EXPECT_EQ(n.get_string(0, "host"), "n01");
  EXPECT_EQ(n.get_int(0, "ranks"), 2);
  EXPECT_EQ(n.get_int(0, "threads"), 4);
  EXPECT_EQ(n.get_int(0, "elements"), 2000);
  EXPECT_EQ(n.get_int(0, "bytes"), 32000);
  EXPECT_DOUBLE_EQ(n.get_double(0, "t_min"), 2.0);
  EXPECT_DOUBLE_EQ(n.get_double(0, "t_avg"), 7.0 / 3.0);
  EXPECT_DOUBLE_EQ(n.get_double(0, "t_max"), 3.0);
  EXPECT_DOUBLE_EQ(n.get_double(0, "bandwidth"), 16000.0);
  EXPECT_EQ(n.get_int(0, "valid"), 1);
  EXPECT_EQ(n.get_string(0, "stores"), "nontemporal");

  // Triad: max(4,3)=4, max(4,5)=5, max(4,2)=4; rank 1 invalid makes the node invalid.
  EXPECT_EQ(n.get_string(1, "kernel"), "Triad");
  EXPECT_DOUBLE_EQ(n.get_double(1, "t_min"), 4.0);
  EXPECT_DOUBLE_EQ(n.get_double(1, "t_avg"), 13.0 / 3.0);
  EXPECT_DOUBLE_EQ(n.get_double(1, "t_max"), 5.0);
  EXPECT_DOUBLE_EQ(n.get_double(1, "bandwidth"), 48000.0 / 4.0);
  EXPECT_EQ(n.get_int(1, "valid"), 0);

  EXPECT_TRUE(benchmark->summarize_node({unrelated}).empty());
}

// ---- report ----

void add_node_row(Table& t, const std::string& host, const char* kernel, double bandwidth, double t_min,
                  bool valid = true) {
  t.add_row({{"host", host},
             {"backend", "cpu"},
             {"ranks", 1},
             {"threads", 2},
             {"devices", 1},
             {"device", "cpu"},
             {"kernel", kernel},
             {"type", "double"},
             {"stores", "nontemporal"},
             {"elements", 100000000},
             {"bytes", static_cast<std::int64_t>(bandwidth * t_min)},
             {"t_min", t_min},
             {"t_avg", t_min * 1.1},
             {"t_max", t_min * 1.2},
             {"bandwidth", bandwidth},
             {"valid", valid}});
}

TEST(StreamReport, NodeTableStreamTableAndInvalidRows) {
  Table node10 = make_stream_nodes_table(), node2 = make_stream_nodes_table();
  for (const StreamKernelSpec& k : kStreamKernels) {
    add_node_row(node10, "node10", std::string(k.label).c_str(), 30e9, 0.1, k.kernel != StreamKernel::Add);
    add_node_row(node2, "node2", std::string(k.label).c_str(), 28.123e9, 0.05);
  }
  const std::vector<std::string> lines = make_stream_report()->summary_lines({node10, node2});
  auto index_of = [&](const std::string& text) {
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (lines[i].find(text) != std::string::npos) return static_cast<long>(i);
    return -1L;
  };
  std::string all;
  for (const std::string& l : lines) all += l + "\n";

  const long header = index_of("host");
  ASSERT_GE(header, 0) << all;
  EXPECT_NE(lines[header].find("Copy"), std::string::npos);
  EXPECT_NE(lines[header].find("Triad"), std::string::npos);
  // Sorted by host, node2 before node10; rates in GB/s with 2 decimals.
  EXPECT_EQ(lines[header + 1].rfind("node2", 0), 0u) << all;
  EXPECT_NE(lines[header + 1].find("28.12"), std::string::npos) << all;
  EXPECT_EQ(lines[header + 2].rfind("node10", 0), 0u) << all;
  EXPECT_NE(lines[header + 2].find("30.00"), std::string::npos) << all;

  // STREAM's own table for each node (2 nodes <= 4).
  const long title = index_of("STREAM double on node2 (1 rank, 2 threads, 100000000 elements per array)");
  ASSERT_GE(title, 0) << all;
  EXPECT_EQ(lines[title + 1], "Function    Best Rate MB/s  Avg time     Min time     Max time");
  EXPECT_EQ(lines[title + 2], "Copy:           28123.0     0.055000     0.050000     0.060000");
  EXPECT_EQ(lines[title + 5].rfind("Triad:", 0), 0u);
  EXPECT_GE(index_of("STREAM double on node10"), 0) << all;

  // The invalid row is named.
  const long invalid = index_of("INVALID");
  ASSERT_GE(invalid, 0) << all;
  EXPECT_NE(lines[invalid].find("node10"), std::string::npos);
  EXPECT_NE(lines[invalid].find("Add"), std::string::npos);
  EXPECT_NE(lines[invalid].find("double"), std::string::npos);
  EXPECT_EQ(index_of("INVALID: node2"), -1) << all;
}

TEST(StreamReport, NoStreamTablesWithManyNodesSkipsStreamTables) {
  EXPECT_TRUE(make_stream_report()->summary_lines({}).empty());
  Table nodes = make_stream_nodes_table();
  for (const std::string host : {"n0", "n1", "n2", "n3", "n4"})
    for (const StreamKernelSpec& k : kStreamKernels) add_node_row(nodes, host, std::string(k.label).c_str(), 20e9, 0.1);
  const std::vector<std::string> lines = make_stream_report()->summary_lines({nodes});
  EXPECT_EQ(lines.size(), 1u + 1u + 5u);  // title, header, 5 nodes
  for (const std::string& l : lines) EXPECT_EQ(l.find("Function"), std::string::npos);
}

}  // namespace
}  // namespace bws::stream
