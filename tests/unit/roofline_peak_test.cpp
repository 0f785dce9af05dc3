// The roofline benchmark (lib/roofline): a rate above its peak is a failed
// check, and a small end-to-end run on a real Team.
#include <gtest/gtest.h>

#include "TestSupport.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/Config.hpp"
#include "core/ResultColumns.hpp"
#include "core/RunContext.hpp"
#include "model/Roofline.hpp"
#include "report/Outcome.hpp"
#include "roofline/FmaKernels.hpp"
#include "roofline/Gemm.hpp"
#include "roofline/KernelRoofline.hpp"
#include "roofline/RooflineBenchmark.hpp"
#include "roofline/RooflineNodeSummary.hpp"
#include "roofline/RooflinePeakChecks.hpp"
#include "roofline/RooflinePlan.hpp"
#include "roofline/RooflineResults.hpp"
#include "roofline/RooflineTables.hpp"
#include "stream/StreamPlan.hpp"
#include "topology/PinningPlan.hpp"
#include "topology/Team.hpp"
#include "topology/Topology.hpp"

namespace bws::roofline {
namespace {

using test::config_with;

// ---- a rate above its peak is a failed check ----

RooflineMeasurement compute_row(RooflineKernel kernel, StreamType type, std::uint64_t flops, double seconds) {
  RooflineMeasurement m;
  m.kernel = kernel;
  m.type = type;
  m.flops = flops;
  m.seconds = {seconds};
  return m;
}

TEST(RooflinePeak, SgemmAboveTheFmaPeakFailsAndExitsThree) {
  // The run: SGEMM 163 GFLOP/s against a peak SP of 116 GFLOP/s.
  Table results = make_roofline_results_table(), checks = make_checks_table(), ranks = make_roofline_ranks_table();
  const auto fma_sp = compute_row(RooflineKernel::Fma, StreamType::Float, 116000000000, 1.0);   // 116e9 FLOP/s
  const auto sgemm = compute_row(RooflineKernel::Gemm, StreamType::Float, 163000000000, 1.0);   // 163e9 FLOP/s
  const auto fma_dp = compute_row(RooflineKernel::Fma, StreamType::Double, 58000000000, 1.0);   // 58e9
  const auto dgemm = compute_row(RooflineKernel::Gemm, StreamType::Double, 50000000000, 1.0);   // 50e9: fine
  add_roofline_results(results, checks, ranks, {0, "h", 64}, {fma_dp, fma_sp, dgemm, sgemm}, "openblas");
  int peak_rows = 0, failed = 0;
  for (std::size_t r = 0; r < checks.rows(); ++r) {
    if (checks.get_string(r, "check") != "roofline.peak") continue;
    ++peak_rows;
    EXPECT_EQ(checks.get_string(r, "kind"), "model");
    EXPECT_EQ(checks.get_string(r, "unit"), "FLOP/s");
    if (checks.get_int(r, "passed") == 0) {
      ++failed;
      EXPECT_DOUBLE_EQ(checks.get_double(r, "measured"), 163e9);
      EXPECT_DOUBLE_EQ(checks.get_double(r, "expected"), 116e9);
      EXPECT_DOUBLE_EQ(checks.get_double(r, "upper"), 116e9 * 1.03);
      EXPECT_NE(checks.get_string(r, "subject").find("SGEMM above the FMA peak SP"), std::string::npos);
    }
  }
  EXPECT_EQ(peak_rows, 2);
  EXPECT_EQ(failed, 1);
  report::Outcome outcome;
  outcome.account(results);
  outcome.account(checks);
  EXPECT_EQ(outcome.checks_failed(), 1);
  EXPECT_EQ(outcome.exit_code(), 3);
}

TEST(RooflinePeak, TheToleranceIsThreePerCentAndInfinityFails) {
  // FMA DP 10e9 FLOP/s; DGEMM 10.2e9 (+2 %) passes, 10.4e9 (+4 %) fails.
  const auto run = [](std::uint64_t gemm_flops, double gemm_seconds) {
    Table results = make_roofline_results_table(), checks = make_checks_table(), ranks = make_roofline_ranks_table();
    add_roofline_results(results, checks, ranks, {0, "h", 1},
                         {compute_row(RooflineKernel::Fma, StreamType::Double, 10000000000, 1.0),
                          compute_row(RooflineKernel::Gemm, StreamType::Double, gemm_flops, gemm_seconds)},
                         "x");
    for (std::size_t r = 0; r < checks.rows(); ++r)
      if (checks.get_string(r, "check") == "roofline.peak") return checks.get_int(r, "passed");
    return std::int64_t{-1};
  };
  EXPECT_EQ(run(10200000000, 1.0), 1);
  EXPECT_EQ(run(10400000000, 1.0), 0);
  Ceilings c;
  c.fma_double_flop_per_s = 1e9;
  c.gemm_double_flop_per_s = std::numeric_limits<double>::infinity();
  Table checks = make_checks_table();
  add_peak_checks(checks, "node h", c);
  ASSERT_EQ(checks.rows(), 1u);  // SP: neither measured, no row
  EXPECT_EQ(checks.get_int(0, "passed"), 0);
}

TEST(RooflinePeak, TheNodesGemmAboveItsPeakIsAFailedCheckInItsSummary) {
  // Two ranks, 1 s samples: FMA SP 40e9 + 40e9 = 80e9 FLOP/s; SGEMM 2 x 50e9 FLOP in 1 s = 100e9.
  std::vector<Table> tables;
  for (int rank = 0; rank < 2; ++rank) {
    Table results = make_roofline_results_table(), checks = make_checks_table(), ranks = make_roofline_ranks_table();
    add_roofline_results(results, checks, ranks, {rank, "nodeA", 1},
                         {compute_row(RooflineKernel::Fma, StreamType::Float, 40000000000, 1.0),
                          compute_row(RooflineKernel::Gemm, StreamType::Float, 50000000000, 1.0)},
                         "x");
    tables.push_back(std::move(results));
  }
  const std::vector<Table> node = summarize_roofline_node(tables);
  ASSERT_EQ(node.size(), 2u);
  EXPECT_EQ(node[1].path(), kChecksPath);
  ASSERT_EQ(node[1].rows(), 1u);
  EXPECT_EQ(node[1].get_int(0, "passed"), 0);
  EXPECT_DOUBLE_EQ(node[1].get_double(0, "measured"), 100e9);
  EXPECT_DOUBLE_EQ(node[1].get_double(0, "expected"), 80e9);
  EXPECT_NE(node[1].get_string(0, "subject").find("node nodeA"), std::string::npos);
}

// ---- end to end on this machine ----

TEST(RooflineRun, EndToEndSmallRunIsValid) {
  const topo::Topology topology = topo::Topology::discover();
  const int threads = std::min(2, topology.info().cores);
  topo::Team team(topology, topo::make_pinning_plan(topology, threads, topo::BindPolicy::Compact));
  const NodeContext node{topology, "thishost", 0, 1, 0, threads, true, MachineSpeed{}, 0};
  const auto benchmark = make_roofline_benchmark();
  EXPECT_EQ(benchmark->name(), "roofline");
  const Config config = config_with({{"stream.elements", "64K"}, {"roofline.gemm-n", "64"},
                                     {"roofline.min-time", "0.001"}, {"roofline.reps", "2"}});
  const auto planned = benchmark->plan(config, node);
  planned->prepare(team);
  NullProgress progress;
  test::CountingSync sync;
  RunContext context{progress, sync};
  const std::vector<Table> tables = planned->run(team, context);
  planned->release();
  const int kernels = blas_available() ? 5 : 3;  // FMA x2, GEMM x2, Triad
  EXPECT_EQ(sync.calls, kernels * 2);            // one node meeting per timed sample
  ASSERT_EQ(tables.size(), 3u);
  const Table& results = tables[0];
  EXPECT_EQ(results.path(), kResultsPath);
  EXPECT_EQ(results.samples_path(), kTimesPath);
  ASSERT_EQ(results.rows(), static_cast<std::size_t>(kernels));
  for (std::size_t r = 0; r < results.rows(); ++r) {
    EXPECT_EQ(results.get_int(r, "valid"), 1) << r;
    EXPECT_EQ(results.samples(r).size(), 2u);
    const bool triad = results.get_string(r, "kernel") == "Triad";
    EXPECT_GT(triad ? results.get_double(r, "bandwidth") : results.get_double(r, "flop_rate"), 0) << r;
  }
  EXPECT_EQ(results.get_int(results.rows() - 1, "bytes"), 3 * 65536 * 8);  // Triad: b, c read, a written
  const Table& ranks = tables[1];
  ASSERT_EQ(ranks.rows(), 1u);
  EXPECT_DOUBLE_EQ(ranks.get_double(0, "balance_fma_double_flop_per_byte"),
                   ranks.get_double(0, "fma_double_flop_per_s") / ranks.get_double(0, "triad_Bps"));
  EXPECT_EQ(std::isfinite(ranks.get_double(0, "gemm_double_flop_per_s")), blas_available());
  const std::vector<Table> node_tables = benchmark->summarize_node(tables);
  // With a BLAS the node's GEMM is checked against its FMA peak (a checks table).
  ASSERT_EQ(node_tables.size(), blas_available() ? 2u : 1u);
  if (blas_available()) {
    EXPECT_EQ(node_tables[1].path(), kChecksPath);
  }
  EXPECT_DOUBLE_EQ(node_tables[0].get_double(0, "triad_Bps"), ranks.get_double(0, "triad_Bps"));
}

}  // namespace
}  // namespace bws::roofline
