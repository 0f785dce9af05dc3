// BS1-BS7 (lib/bs): byte formulas, kernels and validation on this machine's
// Team, the T0/Wmax fit, planning errors, and an end-to-end small run.
#include <gtest/gtest.h>

#include "TestSupport.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "bs/BsBenchmark.hpp"
#include "bs/BsFit.hpp"
#include "bs/BsKernels.hpp"
#include "bs/BsMesh.hpp"
#include "bs/BsPlan.hpp"
#include "bs/BsResults.hpp"
#include "bs/BsTeamJobs.hpp"
#include "bs/BsTypes.hpp"
#include "core/Config.hpp"
#include "core/ResultColumns.hpp"
#include "core/RunContext.hpp"
#include "topology/PinningPlan.hpp"
#include "topology/Team.hpp"
#include "topology/Topology.hpp"

namespace bws::bs {
namespace {

constexpr std::uint64_t kMiB = 1ull << 20;
const char* const kSmallNode = "numa:1(memory=24GiB) pack:1 l3:1(size=32MiB) l2:2(size=1MiB) l1d:1(size=32KiB) core:1 pu:1";

Config config_with(std::map<std::string, std::string> values) {
  Config config;
  for (auto& [k, v] : values) config.set(k, v);
  return config;
}

// ---- bytes ----

TEST(BsBytes, PaperBytesPerEntry) {
  EXPECT_EQ(vector_test_bytes(BsTest::Copy, 1000), 16u * 1000);
  EXPECT_EQ(vector_test_bytes(BsTest::Axpy, 1000), 24u * 1000);
  EXPECT_EQ(vector_test_bytes(BsTest::Norm, 1000), 8u * 1000);
  EXPECT_EQ(vector_test_bytes(BsTest::Dot, 1000), 16u * 1000);
  EXPECT_EQ(vector_test_bytes(BsTest::CgUpdate, 1000), 48u * 1000);
  EXPECT_EQ(vector_test_bytes(BsTest::CgUpdate, 1ull << 32), 48ull << 32);
}

TEST(BsBytes, MeshTestsUseTheHeadersFormulas) {
  const std::uint64_t ng = 1000, nt = 4096, nu = 3000;
  EXPECT_EQ(gather_bytes({ng, nt, nu}), (ng + 1) * 4 + nu * 4 + nu * 8 + ng * 8);
  EXPECT_EQ(scatter_bytes({ng, nt, nu}), nt * 4 + ng * 8 + nu * 8);
  const BsMeshPoint p = mesh_point(3, 2, false);
  EXPECT_EQ(p.local_nodes, 27u * 27);
  EXPECT_EQ(p.global_nodes, 7u * 7 * 7);
  EXPECT_EQ(p.unmasked_local_nodes, 27u * 27);
  EXPECT_EQ(p.gather_bytes, 12868u);  // 344*4 + 729*12 + 343*8 = 1376 + 8748 + 2744
  const BsMeshPoint masked = mesh_point(3, 2, true);
  EXPECT_EQ(masked.global_nodes, 5u * 5 * 5);
  EXPECT_EQ(masked.unmasked_local_nodes, 7u * 7 * 7);  // (3*3-2)^3
  EXPECT_EQ(masked.gather_bytes, 5620u);   // 126*4 + 343*12 + 125*8
  EXPECT_EQ(masked.scatter_bytes, 6660u);  // 729*4 + 125*8 + 343*8
  const HexMesh mesh = make_hex_mesh(3, 2, false);
  EXPECT_EQ(mesh.local_nodes, p.local_nodes);
  EXPECT_EQ(mesh.global_nodes, p.global_nodes);
}

// ---- kernels on a real team ----

struct TeamFixture {
  topo::Topology topology = topo::Topology::discover();
  topo::Team team{topology, topo::make_pinning_plan(topology, topology.info().cores, topo::BindPolicy::Compact)};
};

TEST(BsKernels, VectorTestsComputeTheRightValuesForOddN) {
  TeamFixture f;
  for (std::uint64_t n : {1ull, 7ull, 13ull, 1001ull, 100003ull}) {
    std::vector<std::vector<double>> storage(4, std::vector<double>(n));
    BsVectorArrays x;
    for (int k = 0; k < 4; ++k) x.a[k] = storage[k].data();
    for (const BsTestSpec& s : kBsTests) {
      if (is_mesh_test(s.test)) continue;
      bs_init_vectors(f.team, s.test, x, n);
      const double scalar = bs_vector_once(f.team, s.test, x, n);
      const BsValidation v = bs_validate_vectors(s.test, x, n, scalar);
      EXPECT_TRUE(v.passed) << s.label << " n=" << n << ": " << v.what;
      // Spot checks independent of the validator.
      const std::uint64_t i = n - 1;
      switch (s.test) {
        case BsTest::Copy: EXPECT_EQ(x.a[1][i], bs_input(0, i)); break;
        case BsTest::Axpy: EXPECT_EQ(x.a[1][i], kAxpyA * bs_input(0, i) + kAxpyB * bs_input(1, i)); break;
        case BsTest::Norm: {
          double sum = 0;
          for (std::uint64_t j = 0; j < n; ++j) sum += bs_input(0, j) * bs_input(0, j);
          EXPECT_NEAR(scalar, sum, 1e-12 * sum);
          EXPECT_NEAR(scalar, kahan_sum(n, [](std::uint64_t j) { return bs_input(0, j) * bs_input(0, j); }), 1e-12 * sum);
          break;
        }
        case BsTest::Dot: {
          const double k = kahan_sum(n, [](std::uint64_t j) { return bs_input(0, j) * bs_input(1, j); });
          EXPECT_NEAR(scalar, k, 1e-12 * k);
          break;
        }
        case BsTest::CgUpdate: {
          EXPECT_EQ(x.a[0][i], bs_input(0, i) + kCgAlpha * bs_input(1, i));
          EXPECT_EQ(x.a[2][i], bs_input(2, i) - kCgAlpha * bs_input(3, i));
          const double k = kahan_sum(n, [](std::uint64_t j) {
            const double r = bs_input(2, j) - kCgAlpha * bs_input(3, j);
            return r * r;
          });
          EXPECT_NEAR(scalar, k, 1e-12 * k);
          break;
        }
        default: break;
      }
    }
  }
}

TEST(BsKernels, ValidationNamesACorruptedEntryAndAWrongSum) {
  const std::uint64_t n = 1001;
  std::vector<std::vector<double>> storage(4, std::vector<double>(n));
  BsVectorArrays x;
  for (int k = 0; k < 4; ++k) x.a[k] = storage[k].data();
  TeamFixture f;
  bs_init_vectors(f.team, BsTest::Copy, x, n);
  bs_vector_once(f.team, BsTest::Copy, x, n);
  x.a[1][17] += 1;
  const BsValidation v = bs_validate_vectors(BsTest::Copy, x, n, 0);
  EXPECT_FALSE(v.passed);
  EXPECT_NE(v.what.find("y[17]"), std::string::npos) << v.what;
  bs_init_vectors(f.team, BsTest::Norm, x, n);
  const double s = bs_vector_once(f.team, BsTest::Norm, x, n);
  EXPECT_TRUE(bs_validate_vectors(BsTest::Norm, x, n, s).passed);
  EXPECT_FALSE(bs_validate_vectors(BsTest::Norm, x, n, s * (1 + 1e-9)).passed);
}

TEST(BsKernels, MeasuredMeshPointsCountTheUnmaskedBytes) {
  // K=3, N=3 masked: Ng = 8^3 = 512, Nt = 27*64 = 1728, Nu = (3*4-2)^3 = 1000.
  //   gather  = 513*4 + 1000*4 + 1000*8 + 512*8 = 2052 + 4000 + 8000 + 4096 = 18148
  //   scatter = 1728*4 + 512*8 + 1000*8 = 6912 + 4096 + 8000 = 19008
  TeamFixture f;
  const HexMesh mesh = make_hex_mesh(3, 3, true);
  const GatherCsr csr = make_gather_csr(mesh);
  const BsMeshLayout layout = mesh_layout(mesh.global_nodes, mesh.local_nodes);
  std::vector<unsigned char> buffer(layout.total + 64);
  const BsMeshOnTeam m = bs_place_mesh(f.team, mesh, csr, buffer.data());
  NullProgress progress;
  struct : NodeSync {
    void barrier() override {}
  } sync;
  RunContext context{progress, sync};
  EXPECT_EQ(bs_measure_mesh_point(f.team, context, BsTest::Gather, m, 1).bytes, 18148u);
  EXPECT_EQ(bs_measure_mesh_point(f.team, context, BsTest::Scatter, m, 1).bytes, 19008u);
}

TEST(BsKernels, GatherOfOnesIsMultiplicityAndScatterRoundTrips) {
  TeamFixture f;
  for (bool masked : {false, true})
    for (auto [k, degree] : std::vector<std::pair<int, int>>{{1, 1}, {2, 1}, {3, 2}, {2, 5}}) {
      const HexMesh mesh = make_hex_mesh(k, degree, masked);
      const GatherCsr csr = make_gather_csr(mesh);
      const BsMeshLayout layout = mesh_layout(mesh.global_nodes, mesh.local_nodes);
      std::vector<unsigned char> buffer(layout.total + 64);
      const BsMeshOnTeam m = bs_place_mesh(f.team, mesh, csr, buffer.data());
      EXPECT_EQ(m.thread_blocks.front(), 0u);
      EXPECT_EQ(m.thread_blocks.back(), csr.blocks());
      const BsValidation g = bs_validate_gather(f.team, m);
      EXPECT_TRUE(g.passed) << "K=" << k << " N=" << degree << ": " << g.what;
      // Unmasked: the corner nodes of the box have multiplicity 1, interior vertices 8.
      if (!masked && k >= 2) {
        EXPECT_EQ(m.x_G[0], 1.0);
      }
      const BsValidation s = bs_validate_scatter(f.team, m);
      EXPECT_TRUE(s.passed) << "K=" << k << " N=" << degree << ": " << s.what;
      // Move a nonzero from row 0 to row 1 in the team's copy: the sums
      // still match the rows, but not the mesh's multiplicity histogram.
      if (mesh.global_nodes > 1) {
        m.row_starts[1] -= 1;
        const BsValidation broken = bs_validate_gather(f.team, m);
        EXPECT_FALSE(broken.passed);
        EXPECT_NE(broken.what.find("histogram"), std::string::npos) << broken.what;
      }
    }
}

TEST(BsKernels, BlocksAreBalancedByNonzeros) {
  const HexMesh mesh = make_hex_mesh(6, 3, false);
  const GatherCsr csr = make_gather_csr(mesh);
  for (int threads : {1, 2, 3, 7}) {
    const std::vector<std::uint64_t> tb = balance_blocks(csr, threads);
    ASSERT_EQ(tb.size(), static_cast<std::size_t>(threads) + 1);
    EXPECT_EQ(tb.front(), 0u);
    EXPECT_EQ(tb.back(), csr.blocks());
    for (int t = 0; t < threads; ++t) {
      EXPECT_LE(tb[t], tb[t + 1]);
      const double nnz = csr.row_starts[csr.block_starts[tb[t + 1]]] - csr.row_starts[csr.block_starts[tb[t]]];
      EXPECT_NEAR(nnz, static_cast<double>(csr.nonzeros()) / threads, 2.0 * kMaxBlockNonzeros);
    }
  }
}

// ---- the fit ----

TEST(BsFit, FischerBrownPointOfThePapersV100Bs3Fit) {
  BsFit fit;
  fit.T0_seconds = 7.62e-6;
  fit.Wmax_Bps = 809e9;
  EXPECT_NEAR(fit.B08_bytes(), 24.66e6, 0.005e6);  // 24.7 MB
  EXPECT_NEAR(fit.B08_bytes() / 1e6, 24.7, 0.05);
  EXPECT_DOUBLE_EQ(fit.B08_bytes(), 4 * fit.B05_bytes());
  EXPECT_NEAR(fischer_brown_bytes(7.62e-6, 809e9, 0.8), fit.B08_bytes(), 1e-6 * fit.B08_bytes());
  EXPECT_NEAR(fischer_brown_bytes(7.62e-6, 809e9, 0.5), fit.B05_bytes(), 1e-6 * fit.B05_bytes());
}

TEST(BsFit, RecoversT0AndWmaxFromNoisySyntheticData) {
  const double T0 = 5e-6, W = 20e9;
  std::mt19937_64 rng(42);
  std::normal_distribution<double> noise(0.0, 0.01);  // 1% multiplicative noise
  std::vector<BsFitPoint> points;
  for (int i = 0; i < 24; ++i) {
    const double bytes = 32768.0 * std::pow(2048.0, i / 23.0);
    points.push_back({bytes, (T0 + bytes / W) * (1 + noise(rng))});
  }
  const BsFit fit = fit_streaming(points);
  ASSERT_TRUE(fit.valid) << fit.invalid_reason;
  EXPECT_NEAR(fit.T0_seconds, T0, 0.1 * T0);
  EXPECT_NEAR(fit.Wmax_Bps, W, 0.03 * W);
  EXPECT_GT(fit.r_squared, 0.99);
  EXPECT_FALSE(fit.T0_negative);
  EXPECT_EQ(fit.points_used, 24);
  EXPECT_EQ(fit.relative_residuals.size(), 24u);
  EXPECT_LT(fit.max_abs_relative_residual, 0.05);
  EXPECT_DOUBLE_EQ(fit.B08_bytes(), 4 * fit.T0_seconds * fit.Wmax_Bps);
}

TEST(BsFit, NegativeInterceptIsForcedToZeroAndFlagged) {
  // Time grows faster than linearly at the top: the free line crosses below 0.
  std::vector<BsFitPoint> points;
  for (double b : {1e5, 1e6, 1e7, 1e8}) points.push_back({b, b / 10e9 * (b >= 1e7 ? 1.0 : 0.5)});
  const BsFit fit = fit_streaming(points);
  ASSERT_TRUE(fit.valid) << fit.invalid_reason;
  EXPECT_TRUE(fit.T0_negative);
  EXPECT_LT(fit.T0_unconstrained_seconds, 0);
  EXPECT_EQ(fit.T0_seconds, 0);
  EXPECT_GT(fit.Wmax_Bps, 0);
  EXPECT_EQ(fit.B08_bytes(), 0);
}

TEST(BsFit, TooFewPointsIsInvalidNotThrown) {
  const std::vector<BsFitPoint> points = {{1e6, 1e-4}, {2e6, 2e-4}};
  const BsFit fit = fit_streaming(points);
  EXPECT_FALSE(fit.valid);
  EXPECT_FALSE(fit.invalid_reason.empty());
}

TEST(BsFit, MeasuredT0IsHeldAndWmaxFittedWithIt) {
  // Noiseless T(B) = 2 us + B / 30 GB/s on DRAM-sized points.
  std::vector<BsFitPoint> points;
  for (double b : {64e6, 128e6, 256e6, 512e6}) points.push_back({b, 2e-6 + b / 30e9});
  const BsFit held = fit_streaming(points, 2e-6);
  ASSERT_TRUE(held.valid);
  EXPECT_TRUE(held.T0_measured);
  EXPECT_DOUBLE_EQ(held.T0_seconds, 2e-6);
  EXPECT_NEAR(held.Wmax_Bps, 30e9, 30e9 * 1e-9);
  EXPECT_NEAR(held.r_squared, 1.0, 1e-12);
  EXPECT_NEAR(held.B08_bytes(), 4 * 2e-6 * 30e9, 1.0);  // 240 kB
  // A wrong T0 (10x) still gives nearly the same Wmax here: milliseconds
  // dwarf it, which is why a free intercept cannot find it.
  EXPECT_NEAR(fit_streaming(points, 20e-6).Wmax_Bps, 30e9, 30e9 * 0.01);
}

TEST(BsFit, SeriesFitsOnlyPointsFromTheFitMinimumUp) {
  BsSeries s;
  for (int i = 0; i < 6; ++i) {
    BsPoint p;
    p.bytes = 8192ull << i;  // 8 KiB .. 256 KiB
    p.seconds = {1e-6 + static_cast<double>(p.bytes) / 1e10};
    s.points.push_back(p);
  }
  const BsFit fit = fit_series(s, 65536);
  EXPECT_EQ(fit.points_used, 3);  // 64, 128, 256 KiB: the minimum itself counts
  EXPECT_EQ(fit.first_fitted_bytes, 65536);
  EXPECT_NEAR(fit.Wmax_Bps, 1e10, 1e6);
  EXPECT_NEAR(fit.T0_seconds, 1e-6, 1e-9);
}

// The paper's fit: plain least squares of t on B over every size, free intercept.
TEST(BsPaperFit, ExactLineGivesItsInterceptAndSlope) {
  // t = 1 us + B / 5e8 B/s: 1000 B -> 3 us, 2000 B -> 5 us, 4000 B -> 9 us.
  const std::vector<BsFitPoint> points = {{1000, 3e-6}, {2000, 5e-6}, {4000, 9e-6}};
  const BsPaperFit fit = fit_paper(points);
  ASSERT_TRUE(fit.valid) << fit.invalid_reason;
  EXPECT_EQ(fit.points_used, 3);
  EXPECT_NEAR(fit.T0_seconds, 1e-6, 1e-15);
  EXPECT_NEAR(fit.Wmax_Bps, 5e8, 5e8 * 1e-9);
  EXPECT_NEAR(fit.B08_bytes(), 2000.0, 1e-6);  // 4 * 1e-6 s * 5e8 B/s
}

TEST(BsPaperFit, ScatteredPointsGiveTheLeastSquaresLine) {
  // B = 1000, 2000, 3000; t = 1, 3, 2 us. Means: B 2000, t 2 us.
  // Sbb = 1000^2 + 0 + 1000^2 = 2e6; Sbt = (-1000)(-1e-6) + 0 + 1000*0 = 1e-3.
  // slope = 1e-3 / 2e6 = 5e-10 s/B -> Wmax 2e9 B/s; T0 = 2e-6 - 5e-10*2000 = 1e-6 s.
  const std::vector<BsFitPoint> points = {{1000, 1e-6}, {2000, 3e-6}, {3000, 2e-6}};
  const BsPaperFit fit = fit_paper(points);
  ASSERT_TRUE(fit.valid);
  EXPECT_NEAR(fit.Wmax_Bps, 2e9, 2e9 * 1e-9);
  EXPECT_NEAR(fit.T0_seconds, 1e-6, 1e-15);
  EXPECT_NEAR(fit.B08_bytes(), 8000.0, 1e-6);  // 4 * 1e-6 * 2e9
}

TEST(BsPaperFit, NegativeInterceptIsReportedNotClamped) {
  // t = -2 us + 3e-9 s/B * B: 1000 -> 1 us, 2000 -> 4 us, 3000 -> 7 us.
  const std::vector<BsFitPoint> points = {{1000, 1e-6}, {2000, 4e-6}, {3000, 7e-6}};
  const BsPaperFit fit = fit_paper(points);
  ASSERT_TRUE(fit.valid);
  EXPECT_NEAR(fit.T0_seconds, -2e-6, 1e-15);
  EXPECT_NEAR(fit.Wmax_Bps, 1.0 / 3e-9, 1e-9 / 3e-9);
  EXPECT_NEAR(fit.B08_bytes(), -8e-6 / 3e-9, 1e-6);  // 4 * -2e-6 / 3e-9 = -2666.67 B
}

TEST(BsPaperFit, DegenerateInputsAreInvalid) {
  EXPECT_FALSE(fit_paper(std::vector<BsFitPoint>{{1000, 1e-6}}).valid);
  EXPECT_FALSE(fit_paper(std::vector<BsFitPoint>{{1000, 1e-6}, {1000, 2e-6}}).valid);  // one size
  EXPECT_FALSE(fit_paper(std::vector<BsFitPoint>{{1000, 2e-6}, {2000, 1e-6}}).valid);  // falling
  EXPECT_FALSE(fit_paper(std::vector<BsFitPoint>{{1000, 0.0}, {2000, 1e-6}}).valid);
}

TEST(BsPaperFit, SeriesUsesEverySizeAndTheMeanTime) {
  // Means 3, 5, 9 us (minimums 2, 5, 8 us would give another line): the exact
  // line t = 1 us + B / 5e8 of the first test.
  BsSeries s;
  const std::vector<std::pair<std::uint64_t, std::vector<double>>> sizes = {
      {1000, {2e-6, 4e-6}}, {2000, {5e-6}}, {4000, {8e-6, 10e-6}}};
  for (const auto& [bytes, seconds] : sizes) {
    BsPoint p;
    p.bytes = bytes;
    p.seconds = seconds;
    p.validation.passed = true;
    s.points.push_back(p);
  }
  Table results = make_bs_results_table(), fits = make_bs_fits_table(), checks = make_checks_table();
  add_bs_series(results, fits, checks, BsRankIdentity{}, s, /*fit_min_bytes=*/0, /*T0 measured*/ 0.5e-6);
  ASSERT_EQ(fits.rows(), 1u);
  EXPECT_EQ(fits.get_int(0, "paper_fitted"), 1);
  EXPECT_EQ(fits.get_int(0, "paper_points"), 3);
  EXPECT_NEAR(fits.get_double(0, "T0_paper_seconds"), 1e-6, 1e-15);
  EXPECT_NEAR(fits.get_double(0, "Wmax_paper_Bps"), 5e8, 5e8 * 1e-9);
  EXPECT_NEAR(fits.get_double(0, "B08_paper_bytes"), 2000.0, 1e-6);
  EXPECT_NEAR(fits.get_double(0, "T0_seconds"), 0.5e-6, 1e-18);  // the measured one stays T0
  std::map<std::string, std::string> units;
  for (const Column& c : fits.columns()) units[c.name] = c.unit;
  EXPECT_EQ(units["T0_paper_seconds"], "s");
  EXPECT_EQ(units["Wmax_paper_Bps"], "B/s");
  EXPECT_EQ(units["B08_paper_bytes"], "B");
  // The summary shows both T0s: the measured 0.500 us and the paper's 1.000 us.
  const std::vector<std::string> lines = make_bs_report()->summary_lines({fits});
  bool header = false, both = false;
  for (const std::string& l : lines) {
    header = header || l.find("paper T0 us") != std::string::npos;
    both = both || (l.find("0.500") != std::string::npos && l.find("1.000") != std::string::npos);
  }
  EXPECT_TRUE(header);
  EXPECT_TRUE(both);
}

// ---- planning ----

NodeContext node_of(const topo::Topology& t, bool quick = false, int ranks = 1) {
  return NodeContext{t, "node1", 0, ranks, 0, 2, quick};
}

TEST(BsPlan, DefaultsAndQuick) {
  const topo::Topology t = topo::Topology::synthetic(kSmallNode);
  const BsParams p = plan_bs(Config{}, node_of(t));
  EXPECT_EQ(p.tests.size(), 7u);
  EXPECT_EQ(p.points, 24);
  EXPECT_EQ(p.reps, 20);
  EXPECT_EQ(p.degrees, (std::vector<int>{1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(p.min_bytes, 32768u);
  EXPECT_EQ(p.max_bytes, 8 * 32 * kMiB);  // 8x LLC
  EXPECT_EQ(p.target_bytes.size(), 24u);
  EXPECT_EQ(p.target_bytes.front(), p.min_bytes);
  EXPECT_EQ(p.target_bytes.back(), p.max_bytes);
  EXPECT_EQ(p.vector_points[0].back().entries, p.max_bytes / 16);
  EXPECT_EQ(p.vector_points[4].back().entries, p.max_bytes / 48);
  ASSERT_EQ(p.mesh_sweeps.size(), 7u);
  for (const BsDegreeSweep& s : p.mesh_sweeps)
    for (std::size_t i = 1; i < s.points.size(); ++i)
      EXPECT_GT(s.points[i].elements_per_side, s.points[i - 1].elements_per_side);

  const BsParams q = plan_bs(Config{}, node_of(t, true));
  EXPECT_EQ(q.points, kQuickPoints);
  EXPECT_EQ(q.reps, kQuickReps);
  EXPECT_EQ(q.degrees, (std::vector<int>{1, 4, 7}));
  EXPECT_EQ(q.max_bytes, 8 * 32 * kMiB);  // --quick still reaches past the LLC, for the fit
  EXPECT_EQ(q.fit_min_bytes, 32 * kMiB);  // auto: the LLC
  int fitted_points = 0;
  for (std::uint64_t b : q.target_bytes) fitted_points += b >= q.fit_min_bytes ? 1 : 0;
  EXPECT_GE(fitted_points, 3);
  // Explicit values win over --quick.
  const BsParams e = plan_bs(config_with({{kRepsOption, "3"}, {kDegreesOption, "2-3,9"}}), node_of(t, true));
  EXPECT_EQ(e.reps, 3);
  EXPECT_EQ(e.degrees, (std::vector<int>{2, 3, 9}));
}

TEST(BsPlan, AutoMaximumFitsFortyPercentOfMemory) {
  const topo::Topology t =
      topo::Topology::synthetic("numa:1(memory=1GiB) pack:1 l3:1(size=256MiB) core:2 pu:1");
  const BsParams p = plan_bs(Config{}, node_of(t, false, 2));
  EXPECT_LE(static_cast<double>(p.memory_bytes()) * 2, 0.4 * 1024 * kMiB);
  EXPECT_LT(p.max_bytes, 8 * 256 * kMiB);
}

TEST(BsPlan, BadInputIsOneLineNamingTheOption) {
  const topo::Topology t = topo::Topology::synthetic(kSmallNode);
  auto error = [&](std::map<std::string, std::string> v) {
    return test::usage_error_of([&] { plan_bs(config_with(v), node_of(t)); });
  };
  auto expect = [](const std::string& msg, const std::string& part) {
    EXPECT_NE(msg.find(part), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  };
  expect(error({{kDegreesOption, "0"}}), "--bs.degrees");
  expect(error({{kDegreesOption, "16"}}), "1..15");
  expect(error({{kDegreesOption, "1..20"}}), "--bs.degrees");
  expect(error({{kDegreesOption, "x"}}), "--bs.degrees");
  expect(error({{kMinBytesOption, "1G"}, {kMaxBytesOption, "1M"}}), "--bs.min-bytes");
  expect(error({{kMinBytesOption, "1G"}, {kMaxBytesOption, "1M"}}), "--bs.max-bytes");
  expect(error({{kPointsOption, "2"}}), "--bs.points");
  expect(error({{kPointsOption, "2"}}), "3..200");
  expect(error({{kFitMinBytesOption, "lots"}}), "--bs.fit-min-bytes");
  expect(error({{kRepsOption, "0"}}), "--bs.reps");
  expect(error({{kTestsOption, "bs8"}}), "--bs.tests");
  expect(error({{kMaskOption, "maybe"}}), "--bs.mask-boundary");
  expect(error({{kMaxBytesOption, "30G"}, {kTestsOption, "bs1"}}), "--bs.max-bytes");
  expect(error({{kMaxBytesOption, "30G"}, {kTestsOption, "bs1"}}), "this node has");
  expect(error({{kMinBytesOption, "-5"}}), "--bs.min-bytes");
}

// ---- end to end ----

class CountingSync final : public NodeSync {
 public:
  void barrier() override { ++calls; }
  int calls = 0;
};

TEST(BsRun, EndToEndSmallRunReturnsValidRowsAndFits) {
  const topo::Topology topology = topo::Topology::discover();
  const int threads = std::min(2, topology.info().cores);
  topo::Team team(topology, topo::make_pinning_plan(topology, threads, topo::BindPolicy::Compact));
  const NodeContext node{topology, "thishost", 3, 1, 0, threads, false};
  const auto benchmark = make_bs_benchmark();
  EXPECT_EQ(benchmark->name(), "bs");
  const Config config = config_with({{kMinBytesOption, "64K"}, {kMaxBytesOption, "2M"}, {kPointsOption, "4"},
                                     {kRepsOption, "3"}, {kDegreesOption, "1,3"}});
  const auto planned = benchmark->plan(config, node);
  planned->prepare(team);
  NullProgress progress;
  CountingSync sync;
  RunContext context{progress, sync};
  const std::vector<Table> tables = planned->run(team, context);
  planned->release();
  EXPECT_EQ(sync.calls, 1 + 5 * 4 + 2);  // the T0 measurement, per BS1-BS5 size, and per degree
  ASSERT_EQ(tables.size(), 3u);
  const Table& results = tables[0];
  const Table& fits = tables[1];
  const Table& checks = tables[2];
  EXPECT_EQ(results.path(), "bs/results");
  EXPECT_EQ(results.samples_path(), "bs/times");
  EXPECT_EQ(fits.path(), "bs/fits");
  std::size_t mesh_rows = 0;
  for (std::size_t r = 0; r < results.rows(); ++r) {
    EXPECT_EQ(results.get_int(r, "valid"), 1) << r;
    EXPECT_EQ(results.samples(r).size(), 3u);
    EXPECT_GT(results.get_double(r, "bandwidth"), 0);
    EXPECT_LE(results.get_double(r, "t_min"), results.get_double(r, "t_median"));
    EXPECT_LE(results.get_double(r, "t_median"), results.get_double(r, "t_max"));
    if (results.get_int(r, "degree") > 0) {
      ++mesh_rows;
      EXPECT_GT(results.get_int(r, "global_nodes"), 0);
      EXPECT_GT(results.get_int(r, "blocks"), 0);
    }
  }
  EXPECT_EQ(results.rows() - mesh_rows, 5u * 4);
  EXPECT_GT(mesh_rows, 4u);
  EXPECT_EQ(fits.rows(), 5u + 2 * 2);  // BS1-BS5, and BS6/BS7 per degree
  for (std::size_t r = 0; r < fits.rows(); ++r) {
    EXPECT_EQ(fits.get_int(r, "valid"), 1);
    if (fits.get_int(r, "fitted")) {
      EXPECT_GT(fits.get_double(r, "Wmax_Bps"), 0);
      EXPECT_TRUE(std::isfinite(fits.get_double(r, "T0_seconds")));
      EXPECT_GE(fits.get_double(r, "T0_seconds"), 0);
      EXPECT_NEAR(fits.get_double(r, "B08_bytes"),
                  4 * fits.get_double(r, "T0_seconds") * fits.get_double(r, "Wmax_Bps"),
                  1e-9 * std::max(1.0, fits.get_double(r, "B08_bytes")));
    }
  }
  for (std::size_t r = 0; r < checks.rows(); ++r) {
    if (checks.get_string(r, "check") == "bs.validation") {
      EXPECT_EQ(checks.get_int(r, "passed"), 1);
    }
  }

  const std::vector<std::string> lines = make_bs_report()->summary_lines({fits});
  ASSERT_GE(lines.size(), 3u);
  bool has_bs3 = false;
  for (const std::string& l : lines) has_bs3 = has_bs3 || l.find("BS3") != std::string::npos;
  EXPECT_TRUE(has_bs3);
}

}  // namespace
}  // namespace bws::bs
