// The roofline (lib/model/Roofline, lib/roofline): the seed's Iso3DFD
// numbers, the text bwreport roofline prints, the FMA kernels and GEMM on
// this machine, planning errors, the node aggregate, the report, and a
// small end-to-end run on a real Team.
#include <gtest/gtest.h>

#include "TestSupport.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/Config.hpp"
#include "core/ResultColumns.hpp"
#include "core/RunContext.hpp"
#include "model/Roofline.hpp"
#include "report/Outcome.hpp"
#include "report/ReportCommand.hpp"
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

constexpr double kGiga = 1e9;

// ---- the seed's numbers (seed 001, Iso3DFD) ----

// 51 adds, 27 muls, 4 loads (coeff, prev, next, vel), 1 store (next), float.
const model::KernelCounts kIso3dfd{51, 27, 4, 1, 4};

TEST(RooflineModel, Iso3dfdArithmeticIntensityAndImbalance) {
  EXPECT_DOUBLE_EQ(model::arithmetic_intensity(kIso3dfd), 3.9);  // 78 / (5 x 4)
  EXPECT_DOUBLE_EQ(model::imbalance_factor(51, 27), 78.0 / 102.0);
  EXPECT_DOUBLE_EQ(model::imbalance_factor(27, 51), 78.0 / 102.0);
  EXPECT_DOUBLE_EQ(model::imbalance_factor(10, 10), 1.0);
  EXPECT_DOUBLE_EQ(model::imbalance_factor(10, 0), 0.5);
}

TEST(RooflineModel, SeedMachineBalances) {
  // Xeon E5-2697v2 (2S): 1036.8 GFLOP/s and 119 GB/s theoretical, LINPACK
  // 930 and STREAM Triad 100 measured: 8.7 and 9.3 FLOP/byte.
  EXPECT_NEAR(model::machine_balance(1036.8e9, 119e9), 8.7, 0.05);
  EXPECT_NEAR(model::machine_balance(930e9, 100e9), 9.3, 1e-12);
  // Xeon Phi 7120: 2420.5 and 352 theoretical (the seed prints 6.87 for
  // 6.876), 2178 and 200 measured: 10.89.
  EXPECT_NEAR(model::machine_balance(2420.5e9, 352e9), 6.87, 0.01);
  EXPECT_NEAR(model::machine_balance(2178e9, 200e9), 10.89, 1e-12);
}

TEST(RooflineModel, SeedAttainableBounds) {
  const double ai = model::arithmetic_intensity(kIso3dfd);
  const double f = model::imbalance_factor(51, 27);
  // From the theoretical bandwidth, without and with the imbalance factor.
  EXPECT_NEAR(model::attainable_flops(ai, 2420.5e9, 352e9), 1372.8e9, 0.05e9);
  EXPECT_NEAR(model::roofline_bound(ai, f, 1036.8e9, 119e9).attainable_imbalanced, 354.9e9, 0.05e9);
  EXPECT_NEAR(model::roofline_bound(ai, f, 2420.5e9, 352e9).attainable_imbalanced, 1049.8e9, 0.05e9);
  // From STREAM (100 and 200 GB/s) against LINPACK: 390 and 780 without
  // the factor, about 298 and 596 with it.
  EXPECT_NEAR(model::attainable_flops(ai, 930e9, 100e9), 390e9, 1e-3);
  EXPECT_NEAR(model::attainable_flops(ai, 2178e9, 200e9), 780e9, 1e-3);
  EXPECT_NEAR(model::roofline_bound(ai, f, 930e9, 100e9).attainable_imbalanced, 298e9, 0.5e9);
  EXPECT_NEAR(model::roofline_bound(ai, f, 2178e9, 200e9).attainable_imbalanced, 596e9, 0.5e9);
  // The kernel is memory bound on both machines, by either pair of ceilings.
  EXPECT_TRUE(model::roofline_bound(ai, f, 1036.8e9, 119e9).memory_bound);
  EXPECT_TRUE(model::roofline_bound(ai, f, 2178e9, 200e9).memory_bound);
  // Above the balance the compute ceiling is the bound.
  const model::RooflineBound compute = model::roofline_bound(20, 1, 930e9, 100e9);
  EXPECT_FALSE(compute.memory_bound);
  EXPECT_DOUBLE_EQ(compute.attainable, 930e9);
}

TEST(RooflineModel, DegenerateInputsGiveNaN) {
  EXPECT_TRUE(std::isnan(model::arithmetic_intensity({1, 1, 0, 0, 8})));
  EXPECT_TRUE(std::isnan(model::imbalance_factor(0, 0)));
  EXPECT_TRUE(std::isnan(model::machine_balance(1e9, 0)));
  EXPECT_TRUE(std::isnan(model::attainable_flops(1, std::numeric_limits<double>::quiet_NaN(), 1e9)));
}

// ---- what bwreport roofline prints ----

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  return text;
}

TEST(RooflineText, IssueCommandPrintsAiAndTheImbalancedBound) {
  const KernelDescription k = kernel_from_counts(kIso3dfd);
  const std::string kernel = joined(kernel_lines(k));
  EXPECT_NE(kernel.find("51 adds, 27 muls, 4 loads, 1 store, 4-byte words"), std::string::npos) << kernel;
  EXPECT_NE(kernel.find("= 78 / 20 = 3.9 FLOP/byte"), std::string::npos) << kernel;
  EXPECT_NE(kernel.find("= 78 / 102 = 0.7647"), std::string::npos) << kernel;
  const std::string table = joined(ceiling_lines(k, {{"given", "-", 1036.8e9, 119e9}, {"given", "-", 930e9, 100e9}}));
  EXPECT_NE(table.find("354.9"), std::string::npos) << table;
  EXPECT_NE(table.find("464.1"), std::string::npos) << table;
  EXPECT_NE(table.find("298.2"), std::string::npos) << table;
  EXPECT_NE(table.find("390.0"), std::string::npos) << table;
  EXPECT_NE(table.find("memory"), std::string::npos) << table;
}

TEST(RooflineText, CommandLineOfTheIssue) {
  std::ostringstream out, err;
  const int code = report::run_report_command(report::roofline_command(),
                                              {"--adds", "51", "--muls", "27", "--loads", "4", "--stores", "1",
                                               "--word-bytes", "4", "--peak-flops", "1036.8e9", "--bandwidth", "119e9"},
                                              out, err);
  EXPECT_EQ(code, 0) << err.str();
  EXPECT_NE(out.str().find("3.9 FLOP/byte"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("354.9"), std::string::npos) << out.str();
}

TEST(RooflineText, CommandErrorsAreOneLineNamingTheOption) {
  auto error = [](std::vector<std::string> args) {
    std::ostringstream out, err;
    EXPECT_EQ(report::run_report_command(report::roofline_command(), args, out, err), 2) << out.str();
    EXPECT_EQ(err.str().find('\n'), err.str().size() - 1) << err.str();
    return err.str();
  };
  EXPECT_NE(error({"--adds", "1", "--muls", "1", "--loads", "1", "--peak-flops", "1e9", "--bandwidth", "1e9"})
                .find("--stores"),
            std::string::npos);
  EXPECT_NE(error({"--ai", "2", "--peak-flops", "1e9"}).find("--bandwidth"), std::string::npos);
  EXPECT_NE(error({"--ai", "x", "--peak-flops", "1e9", "--bandwidth", "1e9"}).find("--ai"), std::string::npos);
  EXPECT_NE(error({"--ai", "2"}).find("--peak-flops"), std::string::npos);
  EXPECT_NE(error({"--ai", "2", "--loads", "1", "--peak-flops", "1e9", "--bandwidth", "1e9"}).find("--ai"),
            std::string::npos);
  EXPECT_NE(error({"--ai", "2", "--bogus", "1"}).find("--bogus"), std::string::npos);
  EXPECT_NE(error({"--ai", "2", "/nonexistent/file.h5"}).find("/nonexistent/file.h5"), std::string::npos);
}

TEST(RooflineText, GivenAiWithoutCountsAssumesNoImbalance) {
  KernelDescription k;
  k.ai = 0.25;
  EXPECT_DOUBLE_EQ(k.imbalance(), 1.0);
  const std::string table = joined(ceiling_lines(k, {{"given", "-", 100e9, 20e9}}));
  EXPECT_NE(table.find("5.0"), std::string::npos) << table;  // 0.25 x 20 GB/s
}

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

Config config_with(std::map<std::string, std::string> values) {
  Config config;
  for (auto& [k, v] : values) config.set(k, v);
  return config;
}

NodeContext node_of(const topo::Topology& t, bool quick = false, int ranks = 1) {
  return NodeContext{t, "node1", 0, ranks, 0, 2, quick};
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
      config_with({{kRepsOption, "7"}, {kGemmNOption, "100"}, {kIsaOption, "scalar"}, {stream::kElementsOption, "64K"},
                   {stream::kTypeOption, "float"}}),
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
  const RooflineParams p = plan_roofline(config_with({{stream::kElementsOption, "64K"}}), node_of(t));
  EXPECT_LT(p.gemm_n, kAutoGemmN);
  EXPECT_LE(static_cast<double>(p.gemm_buffer_bytes), kGemmMemoryFraction * 128 * 1024 * 1024);
}

TEST(RooflinePlan, BadInputIsOneLineNamingTheOption) {
  const topo::Topology t = topo::Topology::synthetic(kSmallNode);
  auto error = [&](std::map<std::string, std::string> v) {
    return test::usage_error_of([&] { plan_roofline(config_with(v), node_of(t)); });
  };
  auto expect = [](const std::string& msg, const std::string& part) {
    EXPECT_NE(msg.find(part), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  };
  expect(error({{kIsaOption, "avx3"}}), "--roofline.isa");
  expect(error({{kIsaOption, "avx3"}}), "scalar");
  expect(error({{kMinTimeOption, "0"}}), "--roofline.min-time");
  expect(error({{kMinTimeOption, "soon"}}), "0.0001..60");
  expect(error({{kRepsOption, "0"}}), "--roofline.reps");
  expect(error({{kRepsOption, "0"}}), "1..1000");
  expect(error({{kGemmNOption, "32"}}), "--roofline.gemm-n");
  expect(error({{kGemmNOption, "20000"}}), "64..16384");
  expect(error({{stream::kElementsOption, "5"}}), "--stream.elements");
  if (blas_available()) expect(error({{kGemmNOption, "16384"}}), "20%");
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

// ---- a rate above its peak is a failed check ----

RooflineMeasurement compute_row(RooflineKernel kernel, StreamType type, std::uint64_t flops, double seconds) {
  RooflineMeasurement m;
  m.kernel = kernel;
  m.type = type;
  m.flops = flops;
  m.seconds = {seconds};
  return m;
}

const Table* find_check(const Table& checks, const std::string& name, std::size_t nth = 0) {
  for (std::size_t r = 0; r < checks.rows(); ++r)
    if (checks.get_string(r, "check") == name && nth-- == 0) return &checks;
  return nullptr;
}

TEST(RooflinePeak, SgemmAboveTheFmaPeakFailsAndExitsThree) {
  // The issue's run: SGEMM 163 GFLOP/s against a peak SP of 116 GFLOP/s.
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
  survey::Outcome outcome;
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

class CountingSync final : public NodeSync {
 public:
  void barrier() override { ++calls; }
  int calls = 0;
};

TEST(RooflineRun, EndToEndSmallRunIsValid) {
  const topo::Topology topology = topo::Topology::discover();
  const int threads = std::min(2, topology.info().cores);
  topo::Team team(topology, topo::make_pinning_plan(topology, threads, topo::BindPolicy::Compact));
  const NodeContext node{topology, "thishost", 0, 1, 0, threads, true};
  const auto benchmark = make_roofline_benchmark();
  EXPECT_EQ(benchmark->name(), "roofline");
  const Config config = config_with({{stream::kElementsOption, "64K"}, {kGemmNOption, "64"},
                                     {kMinTimeOption, "0.001"}, {kRepsOption, "2"}});
  const auto planned = benchmark->plan(config, node);
  planned->prepare(team);
  NullProgress progress;
  CountingSync sync;
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
  if (blas_available()) EXPECT_EQ(node_tables[1].path(), kChecksPath);
  EXPECT_DOUBLE_EQ(node_tables[0].get_double(0, "triad_Bps"), ranks.get_double(0, "triad_Bps"));
}

}  // namespace
}  // namespace bws::roofline
