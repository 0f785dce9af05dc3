// The roofline benchmark (lib/roofline): the FMA kernels and GEMM on this
// machine, planning errors, the node aggregate and the report.
#include <gtest/gtest.h>

#include "TestSupport.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "core/Config.hpp"
#include "core/ResultColumns.hpp"
#include "core/RunContext.hpp"
#include "model/Roofline.hpp"
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
using test::joined;

// ---- kernels on this machine ----

TEST(RooflineKernels, EveryIsaThisCpuHasConvergesToTheFixedPoint) {
  ASSERT_FALSE(supported_isas().empty());
  EXPECT_EQ(supported_isas().front(), widest_supported_isa());
  EXPECT_TRUE(isa_supported(VectorIsa::Scalar));
  for (VectorIsa isa : supported_isas())
    for (StreamType type : {StreamType::Double, StreamType::Float}) {
      EXPECT_LE(run_fma_kernel(isa, type, kFmaMinIterations), kFmaTolerance) << isa_name(isa);
      // A loop that did not run leaves the start values (1 + k/16) far away.
      EXPECT_GT(run_fma_kernel(isa, type, 0), 0.9) << isa_name(isa);
    }
}

TEST(RooflineKernels, FlopCountsPerIteration) {
  EXPECT_EQ(fma_flops_per_iteration(VectorIsa::Avx512, StreamType::Double), 24u * 8 * 2);
  EXPECT_EQ(fma_flops_per_iteration(VectorIsa::Avx512, StreamType::Float), 24u * 16 * 2);
  EXPECT_EQ(fma_flops_per_iteration(VectorIsa::AvxFma, StreamType::Double), 12u * 4 * 2);
  EXPECT_EQ(fma_flops_per_iteration(VectorIsa::Avx, StreamType::Float), 12u * 8 * 2);
  EXPECT_EQ(fma_flops_per_iteration(VectorIsa::Sse2, StreamType::Double), 12u * 2 * 2);
  EXPECT_EQ(fma_flops_per_iteration(VectorIsa::Scalar, StreamType::Double), 8u * 1 * 2);
  EXPECT_TRUE(fma_kernel_shape(VectorIsa::AvxFma, StreamType::Double).fused);
  EXPECT_FALSE(fma_kernel_shape(VectorIsa::Avx, StreamType::Double).fused);
  EXPECT_EQ(isa_from_name("avx-fma"), VectorIsa::AvxFma);
  EXPECT_FALSE(isa_from_name("avx3").has_value());
}

TEST(RooflineKernels, GemmIsExactAndItsCheckFindsAWrongEntry) {
  if (!blas_available()) {
    EXPECT_EQ(blas_description(), "none");
    std::vector<double> m(4);
    EXPECT_THROW(gemm(StreamType::Double, 2, m.data(), m.data(), m.data()), std::logic_error);
    GTEST_SKIP() << "built without a BLAS";
  }
  EXPECT_NE(blas_description(), "none");
  blas_use_calling_thread_only();
  const std::size_t n = 67;
  for (StreamType type : {StreamType::Double, StreamType::Float}) {
    std::vector<double> a(n * n), b(n * n), c(n * n, -1.0);  // doubles hold either type's n*n values
    fill_gemm_inputs(type, n, a.data(), b.data());
    gemm(type, n, a.data(), b.data(), c.data());
    EXPECT_EQ(wrong_gemm_entries(type, n, c.data()), 0);
    if (type == StreamType::Double) {
      c[(n / 2) * n + n / 3] += 1;
    } else {
      reinterpret_cast<float*>(c.data())[(n / 2) * n + n / 3] += 1;
    }
    EXPECT_EQ(wrong_gemm_entries(type, n, c.data()), 1);
  }
  EXPECT_EQ(gemm_flops(1000), 2000000000u);
}

// ---- planning ----

const char* const kSmallNode = "numa:1(memory=24GiB) pack:1 l3:1(size=32MiB) l2:2(size=1MiB) l1d:1(size=32KiB) core:2 pu:1";


NodeContext node_of(const topo::Topology& t, bool quick = false, int ranks = 1) {
  return NodeContext{t, "node1", 0, ranks, 0, 2, quick, MachineSpeed{}, 0};
}

TEST(RooflinePlan, DefaultsQuickAndTheStreamRules) {
  const topo::Topology t = topo::Topology::synthetic(kSmallNode);
  const RooflineParams p = plan_roofline(Config{}, node_of(t));
  EXPECT_TRUE(p.isa_auto);
  EXPECT_EQ(p.isa, widest_supported_isa());
  EXPECT_DOUBLE_EQ(p.min_time_seconds, 0.1);
  EXPECT_EQ(p.reps, 5);
  EXPECT_EQ(p.gemm_n, kAutoGemmN);
  EXPECT_EQ(p.gemm, blas_available());
  // Triad: STREAM's auto size (each array >= 4x the LLC and >= 10^7) in double.
  EXPECT_EQ(p.triad_elements, 4u * 32 * 1024 * 1024 / 8);
  EXPECT_EQ(p.triad_layout.array_bytes, p.triad_elements * 8);
  if (p.gemm) {
    EXPECT_EQ(p.gemm_buffer_bytes, 2 * p.gemm_thread_stride_bytes);
    EXPECT_GE(p.gemm_thread_stride_bytes, 3 * matrix_bytes(kAutoGemmN, StreamType::Double));
    EXPECT_EQ(p.gemm_thread_stride_bytes % 4096, 0u);
  }
  const RooflineParams q = plan_roofline(Config{}, node_of(t, true));
  EXPECT_DOUBLE_EQ(q.min_time_seconds, 0.01);  // --help: "--quick with the default: 0.01"
  EXPECT_EQ(q.reps, 3);
  EXPECT_EQ(q.gemm_n, kQuickGemmN);
  const RooflineParams e = plan_roofline(
      config_with({{"roofline.reps", "7"}, {"roofline.gemm-n", "100"}, {"roofline.isa", "scalar"}, {"stream.elements", "64K"},
                   {"stream.type", "float"}}),
      node_of(t, true));
  EXPECT_EQ(e.reps, 7);
  EXPECT_EQ(e.gemm_n, 100u);
  EXPECT_EQ(e.isa, VectorIsa::Scalar);
  EXPECT_EQ(e.triad_elements, 65536u);
  EXPECT_EQ(e.triad_layout.array_bytes, 65536u * 8);  // double whatever --stream.type says
}

TEST(RooflinePlan, AutoGemmSizeShrinksToFitTheMemory) {
  if (!blas_available()) GTEST_SKIP() << "built without a BLAS";
  // 2 threads x 3 matrices of 8 MiB (n = 1024) = 48 MiB > 20 % of 128 MiB.
  const topo::Topology t = topo::Topology::synthetic("numa:1(memory=128MiB) pack:1 l3:1(size=1MiB) core:2 pu:1");
  const RooflineParams p = plan_roofline(config_with({{"stream.elements", "64K"}}), node_of(t));
  EXPECT_LT(p.gemm_n, kAutoGemmN);
  EXPECT_LE(static_cast<double>(p.gemm_buffer_bytes), kGemmMemoryFraction * 128 * 1024 * 1024);
}

TEST(RooflinePlan, BadInputIsOneLineNamingTheOption) {
  const topo::Topology t = topo::Topology::synthetic(kSmallNode);
  auto error = [&](std::map<std::string, std::string> v) {
    return test::usage_error_of([&] { plan_roofline(config_with(v), node_of(t)); });
  };
  const auto expect = test::expect_one_line_with;
  expect(error({{"roofline.isa", "avx3"}}), "--roofline.isa");
  expect(error({{"roofline.isa", "avx3"}}), "scalar");
  expect(error({{"roofline.min-time", "0"}}), "--roofline.min-time");
  expect(error({{"roofline.min-time", "soon"}}), "0.0001..60");
  expect(error({{"roofline.reps", "0"}}), "--roofline.reps");
  expect(error({{"roofline.reps", "0"}}), "1..1000");
  expect(error({{"roofline.gemm-n", "32"}}), "--roofline.gemm-n");
  expect(error({{"roofline.gemm-n", "20000"}}), "64..16384");
  expect(error({{"stream.elements", "5"}}), "--stream.elements");
  if (blas_available()) expect(error({{"roofline.gemm-n", "16384"}}), "20%");
}

// ---- node aggregate and report ----

Table rank_results(int rank, std::vector<double> fma_seconds, std::vector<double> triad_seconds) {
  Table results = make_roofline_results_table(), checks = make_checks_table(), ranks = make_roofline_ranks_table();
  RooflineMeasurement fma;
  fma.kernel = RooflineKernel::Fma;
  fma.implementation = "avx512f";
  fma.flops = 1000000000;
  fma.seconds = std::move(fma_seconds);
  RooflineMeasurement triad;
  triad.kernel = RooflineKernel::Triad;
  triad.implementation = "normal stores";
  triad.bytes = 3000000000;
  triad.seconds = std::move(triad_seconds);
  add_roofline_results(results, checks, ranks, {rank, "nodeA", 2}, {fma, triad}, "none");
  EXPECT_EQ(checks.rows(), 4u);
  return results;
}

TEST(RooflineNode, SamplesOfRanksThatRanTogetherGiveTheNodeRate) {
  // FMA (1e9 FLOP per rank): rank 0 took 0.1 s then 0.2 s, rank 1 0.3 s
  // then 0.1 s. The ranks' rates add up per sample: 10 + 3.33 and 5 + 10
  // GFLOP/s, the best 15 (not 10 + 10 from different samples). Triad (3e9 B
  // per rank): the slowest rank's times are 2 and 1.5 s: 6e9 B / 1.5 s.
  std::vector<Table> tables = {rank_results(0, {0.1, 0.2}, {1.0, 1.5}), rank_results(1, {0.3, 0.1}, {2.0, 1.0})};
  const std::vector<Table> node = summarize_roofline_node(tables);
  ASSERT_EQ(node.size(), 1u);  // no GEMM: nothing to check against the peak
  const Table& t = node[0];
  EXPECT_EQ(t.path(), kNodesPath);
  ASSERT_EQ(t.rows(), 1u);
  EXPECT_EQ(t.get_string(0, "host"), "nodeA");
  EXPECT_EQ(t.get_int(0, "ranks"), 2);
  EXPECT_EQ(t.get_int(0, "threads"), 4);
  EXPECT_DOUBLE_EQ(t.get_double(0, "fma_double_flop_per_s"), 1e9 / 0.2 + 1e9 / 0.1);
  EXPECT_DOUBLE_EQ(t.get_double(0, "triad_Bps"), 6e9 / 1.5);
  EXPECT_DOUBLE_EQ(t.get_double(0, "balance_fma_double_flop_per_byte"), (1e9 / 0.2 + 1e9 / 0.1) / (6e9 / 1.5));
  EXPECT_TRUE(std::isnan(t.get_double(0, "gemm_double_flop_per_s")));
  EXPECT_TRUE(std::isnan(t.get_double(0, "balance_gemm_double_flop_per_byte")));
  EXPECT_EQ(t.get_string(0, "isa"), "avx512f");
  EXPECT_EQ(t.get_int(0, "valid"), 1);
  EXPECT_TRUE(summarize_roofline_node({}).empty());
}

TEST(RooflineNode, ReportShowsTheCeilingsAndSaysWhatIsNotAvailable) {
  const std::vector<Table> node = summarize_roofline_node({rank_results(0, {0.1, 0.1}, {1.0, 1.0})});
  const std::string text = joined(make_roofline_report()->summary_lines(node));
  EXPECT_NE(text.find("peak DP GFLOP/s"), std::string::npos) << text;
  EXPECT_NE(text.find("nodeA"), std::string::npos) << text;
  EXPECT_NE(text.find("10.00"), std::string::npos) << text;  // 1e9 FLOP / 0.1 s
  EXPECT_NE(text.find("3.00"), std::string::npos) << text;   // 3e9 B / 1 s
  EXPECT_NE(text.find("not available"), std::string::npos) << text;
}

TEST(RooflineResults, AWrongResultOrAnImpossibleRateIsInvalid) {
  Table results = make_roofline_results_table(), checks = make_checks_table(), ranks = make_roofline_ranks_table();
  RooflineMeasurement wrong;
  wrong.kernel = RooflineKernel::Gemm;
  wrong.flops = 1000;
  wrong.seconds = {1.0};
  wrong.wrong = 2;
  wrong.wrong_unit = "entries";
  RooflineMeasurement too_fast;
  too_fast.kernel = RooflineKernel::Fma;
  too_fast.flops = 1000000000000000;
  too_fast.seconds = {1e-3};
  add_roofline_results(results, checks, ranks, {0, "h", 1}, {wrong, too_fast}, "x");
  EXPECT_EQ(results.get_int(0, "valid"), 0);
  EXPECT_EQ(results.get_int(1, "valid"), 0);
  EXPECT_EQ(ranks.get_int(0, "valid"), 0);
  int failed = 0;
  for (std::size_t r = 0; r < checks.rows(); ++r) failed += checks.get_int(r, "passed") == 0;
  EXPECT_EQ(failed, 2);
}

}  // namespace
}  // namespace bws::roofline
