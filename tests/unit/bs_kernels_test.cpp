// BS1-BS7 (lib/bs): byte formulas, kernels and validation on this machine's
// Team.
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

}  // namespace
}  // namespace bws::bs
