#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "bs/BsMesh.hpp"

using namespace bws::bs;

namespace {

struct MeshShape {
  int elements_per_side;
  int degree;
};

// Small and odd shapes, K=1 included, every default degree 1..7 and the largest 15.
const std::vector<MeshShape> kShapes = {{1, 1}, {1, 2}, {2, 1}, {3, 1}, {2, 2}, {3, 3}, {2, 4},
                                        {4, 5}, {2, 6}, {3, 7}, {1, 7}, {2, 15}, {1, 15}};

std::uint64_t cube(std::uint64_t x) { return x * x * x; }

// Closed form of the multiplicity histogram. Along one axis a lattice
// coordinate is shared by two elements iff it is a multiple of N strictly
// inside the box (K-1 of them); the multiplicity of a point is the product
// over the three axes of 1 or 2. Masking only removes the two boundary
// coordinates, which are never shared.
std::vector<std::uint64_t> expected_histogram(int k, int n, bool masked) {
  const std::uint64_t shared = static_cast<std::uint64_t>(k) - 1;
  const std::uint64_t span = static_cast<std::uint64_t>(k) * n;
  const std::uint64_t coordinates = masked ? span - 1 : span + 1;
  const std::uint64_t single = coordinates - shared;
  std::vector<std::uint64_t> histogram(shared > 0 ? 9 : 2, 0);
  histogram[1] = single * single * single;
  if (shared > 0) {
    histogram[2] = 3 * single * single * shared;
    histogram[4] = 3 * single * shared * shared;
    histogram[8] = shared * shared * shared;
  }
  return histogram;
}

// The global id the spec gives for element (ex,ey,ez), local (i,j,k), written
// directly from the lattice definition rather than the library's axis tables.
std::int32_t spec_global_id(int k_side, int n, bool masked, int ex, int ey, int ez, int i, int j, int k) {
  const int span = k_side * n;
  const int x = ex * n + i, y = ey * n + j, z = ez * n + k;
  if (!masked) return (z * (span + 1) + y) * (span + 1) + x;
  auto on_boundary = [span](int c) { return c == 0 || c == span; };
  if (on_boundary(x) || on_boundary(y) || on_boundary(z)) return -1;
  return ((z - 1) * (span - 1) + (y - 1)) * (span - 1) + (x - 1);
}

std::uint64_t unmasked_local_nodes(const HexMesh& mesh) {
  std::uint64_t count = 0;
  for (const auto g : mesh.local_to_global) count += g >= 0 ? 1 : 0;
  return count;
}

void expect_blocks_cover_rows(const GatherCsr& csr, int max_block_nonzeros) {
  const auto rows = static_cast<std::int32_t>(csr.row_starts.size() - 1);
  ASSERT_FALSE(csr.block_starts.empty());
  EXPECT_EQ(csr.block_starts.front(), 0);
  EXPECT_EQ(csr.block_starts.back(), rows);
  for (std::uint64_t b = 0; b < csr.blocks(); ++b) {
    const std::int32_t first = csr.block_starts[b], end = csr.block_starts[b + 1];
    ASSERT_LT(first, end) << "empty block " << b;  // strictly increasing: each row in exactly one block
    const std::int32_t block_nonzeros = csr.row_starts[end] - csr.row_starts[first];
    EXPECT_LE(block_nonzeros, max_block_nonzeros) << "block " << b;
    // Greedy: the next row would not have fit, so the block could not be longer.
    if (end < rows) {
      const std::int32_t next_row_nonzeros = csr.row_starts[end + 1] - csr.row_starts[end];
      EXPECT_GT(block_nonzeros + next_row_nonzeros, max_block_nonzeros) << "block " << b;
    }
  }
}

}  // namespace

TEST(BsMesh, CountsUnmaskedAndMasked) {
  for (const auto [k, n] : kShapes) {
    for (const bool masked : {false, true}) {
      const HexMesh mesh = make_hex_mesh(k, n, masked);
      SCOPED_TRACE(testing::Message() << "K=" << k << " N=" << n << " masked=" << masked);
      EXPECT_EQ(mesh.elements, cube(k));
      EXPECT_EQ(mesh.nodes_per_element, cube(n + 1));
      EXPECT_EQ(mesh.local_nodes, cube(k) * cube(n + 1));
      EXPECT_EQ(mesh.local_to_global.size(), mesh.local_nodes);
      const std::uint64_t span = static_cast<std::uint64_t>(k) * n;
      EXPECT_EQ(mesh.global_nodes, masked ? cube(span - 1) : cube(span + 1));
    }
  }
}

TEST(BsMesh, IdsFollowTheLatticeAndAreAllUsed) {
  for (const auto [k, n] : kShapes) {
    for (const bool masked : {false, true}) {
      const HexMesh mesh = make_hex_mesh(k, n, masked);
      SCOPED_TRACE(testing::Message() << "K=" << k << " N=" << n << " masked=" << masked);
      std::size_t l = 0;
      bool all_match = true;
      for (int ez = 0; ez < k; ++ez)
        for (int ey = 0; ey < k; ++ey)
          for (int ex = 0; ex < k; ++ex)
            for (int kk = 0; kk <= n; ++kk)
              for (int j = 0; j <= n; ++j)
                for (int i = 0; i <= n; ++i)
                  all_match &= mesh.local_to_global[l++] == spec_global_id(k, n, masked, ex, ey, ez, i, j, kk);
      EXPECT_TRUE(all_match);
      std::vector<bool> used(mesh.global_nodes, false);
      for (const auto g : mesh.local_to_global) {
        ASSERT_GE(g, -1);
        ASSERT_LT(g, static_cast<std::int64_t>(mesh.global_nodes));
        if (g >= 0) used[static_cast<std::size_t>(g)] = true;
      }
      for (std::size_t g = 0; g < used.size(); ++g) ASSERT_TRUE(used[g]) << "global id " << g << " unused";
    }
  }
}

TEST(BsMesh, NeighboursShareFaceNodes) {
  // K=2, N=1: element 0's right face (i=1) is element 1's left face (i=0).
  const HexMesh mesh = make_hex_mesh(2, 1, false);
  const std::size_t per_element = mesh.nodes_per_element;
  for (std::size_t jk = 0; jk < 4; ++jk) {
    EXPECT_EQ(mesh.local_to_global[jk * 2 + 1], mesh.local_to_global[per_element + jk * 2 + 0]);
  }
  // The box centre (1,1,1) is the corner shared by all 8 elements.
  const std::int32_t centre = (1 * 3 + 1) * 3 + 1;
  int elements_touching_centre = 0;
  for (const auto g : mesh.local_to_global) elements_touching_centre += g == centre ? 1 : 0;
  EXPECT_EQ(elements_touching_centre, 8);
}

TEST(BsMesh, MaskedSingleLinearElementHasNoGlobalNodes) {
  const HexMesh mesh = make_hex_mesh(1, 1, true);
  EXPECT_EQ(mesh.global_nodes, 0u);
  EXPECT_EQ(unmasked_local_nodes(mesh), 0u);
  const GatherCsr csr = make_gather_csr(mesh);
  EXPECT_EQ(csr.row_starts, std::vector<std::int32_t>{0});
  EXPECT_EQ(csr.nonzeros(), 0u);
  EXPECT_EQ(csr.block_starts, std::vector<std::int32_t>{0});
  EXPECT_EQ(csr.blocks(), 0u);
  EXPECT_EQ(multiplicity_histogram(csr), std::vector<std::uint64_t>{0});
}

TEST(BsMesh, RejectsBadShapes) {
  EXPECT_THROW(make_hex_mesh(0, 3, false), std::invalid_argument);
  EXPECT_THROW(make_hex_mesh(-1, 3, false), std::invalid_argument);
  EXPECT_THROW(make_hex_mesh(2, 0, false), std::invalid_argument);
  EXPECT_THROW(make_hex_mesh(2, -4, true), std::invalid_argument);
  // 81^3 * 16^3 = 2.18e9 local nodes > 2^31-1; checked before allocating anything.
  EXPECT_THROW(make_hex_mesh(81, 15, false), std::invalid_argument);
  EXPECT_THROW(make_hex_mesh(1 << 30, 1, false), std::invalid_argument);
  EXPECT_THROW(make_hex_mesh(1, 1 << 30, true), std::invalid_argument);
  EXPECT_THROW(make_gather_csr(make_hex_mesh(1, 1, false), 0), std::invalid_argument);
}

TEST(BsMesh, MultiplicityHistogramMatchesClosedForm) {
  for (const auto [k, n] : kShapes) {
    for (const bool masked : {false, true}) {
      if (masked && k == 1 && n == 1) continue;  // no global nodes: covered above
      SCOPED_TRACE(testing::Message() << "K=" << k << " N=" << n << " masked=" << masked);
      const GatherCsr csr = make_gather_csr(make_hex_mesh(k, n, masked));
      const std::vector<std::uint64_t> histogram = multiplicity_histogram(csr);
      EXPECT_EQ(histogram, expected_histogram(k, n, masked));
      std::uint64_t weighted = 0;
      for (std::size_t m = 0; m < histogram.size(); ++m) weighted += m * histogram[m];
      EXPECT_EQ(weighted, csr.nonzeros());
    }
  }
}

TEST(BsMesh, GatherCsrHoldsEachUnmaskedLocalNodeOnceInItsRow) {
  for (const auto [k, n] : kShapes) {
    for (const bool masked : {false, true}) {
      SCOPED_TRACE(testing::Message() << "K=" << k << " N=" << n << " masked=" << masked);
      const HexMesh mesh = make_hex_mesh(k, n, masked);
      const GatherCsr csr = make_gather_csr(mesh);
      ASSERT_EQ(csr.row_starts.size(), mesh.global_nodes + 1);
      EXPECT_EQ(csr.row_starts.front(), 0);
      EXPECT_EQ(static_cast<std::uint64_t>(csr.row_starts.back()), csr.nonzeros());
      EXPECT_EQ(csr.nonzeros(), unmasked_local_nodes(mesh));
      std::vector<int> seen(mesh.local_nodes, 0);
      for (std::size_t g = 0; g < mesh.global_nodes; ++g) {
        ASSERT_LT(csr.row_starts[g], csr.row_starts[g + 1]) << "row " << g;  // monotone and non-empty
        for (std::int32_t p = csr.row_starts[g]; p < csr.row_starts[g + 1]; ++p) {
          const std::int32_t l = csr.local_ids[static_cast<std::size_t>(p)];
          ASSERT_EQ(mesh.local_to_global[static_cast<std::size_t>(l)], static_cast<std::int32_t>(g));
          if (p > csr.row_starts[g]) {
            EXPECT_LT(csr.local_ids[static_cast<std::size_t>(p) - 1], l);  // ascending local ids
          }
          ++seen[static_cast<std::size_t>(l)];
        }
      }
      for (std::size_t l = 0; l < seen.size(); ++l) {
        ASSERT_EQ(seen[l], mesh.local_to_global[l] >= 0 ? 1 : 0) << "local node " << l;
      }
    }
  }
}

TEST(BsMesh, BlocksCoverEveryRowOnceWithinTheLimit) {
  for (const auto [k, n] : kShapes) {
    for (const bool masked : {false, true}) {
      const HexMesh mesh = make_hex_mesh(k, n, masked);
      for (const int max_block_nonzeros : {kMaxBlockNonzeros, 10, 8, 1}) {
        SCOPED_TRACE(testing::Message() << "K=" << k << " N=" << n << " masked=" << masked
                                        << " max=" << max_block_nonzeros);
        const GatherCsr csr = make_gather_csr(mesh, max_block_nonzeros);
        if (max_block_nonzeros >= 8) {
          expect_blocks_cover_rows(csr, max_block_nonzeros);
        } else {
          // Rows of up to 8 exceed a limit of 1: each such row gets a block of its own.
          EXPECT_EQ(csr.blocks(), mesh.global_nodes);
        }
      }
    }
  }
}

TEST(BsMesh, UnmaskedLocalNodesAreTheIdsThatAreNotMinusOne) {
  for (const MeshShape& shape : kShapes) {
    for (const bool masked : {false, true}) {
      const HexMesh mesh = make_hex_mesh(shape.elements_per_side, shape.degree, masked);
      EXPECT_EQ(mesh.unmasked_local_nodes, unmasked_local_nodes(mesh))
          << "K=" << shape.elements_per_side << " N=" << shape.degree << " masked=" << masked;
    }
  }
  // By hand: K=2, N=7 masked: per axis 2*8 = 16 local positions, 2 masked: 14^3.
  EXPECT_EQ(make_hex_mesh(2, 7, true).unmasked_local_nodes, 2744u);
  // K=2, N=1 masked: 2*2 - 2 = 2 per axis: 2^3.
  EXPECT_EQ(make_hex_mesh(2, 1, true).unmasked_local_nodes, 8u);
  EXPECT_EQ(make_hex_mesh(2, 1, false).unmasked_local_nodes, 64u);
}

// streamParanumal's counts (ids int32, values double), computed by hand:
//   gather  = (Ng+1)*4 row starts + Nu*4 local ids + Nu*8 x_L + Ng*8 x_G
//   scatter = Nt*4 scatter ids + Ng*8 x_G + Nu*8 x_L written
// with Nu the unmasked local nodes (Nt unmasked, (K(N+1)-2)^3 masked).
TEST(BsMesh, ByteCountsOnHandComputedMeshes) {
  // K=2, N=1 unmasked: Ng = 3^3 = 27, Nt = Nu = 8*8 = 64.
  const MeshNodeCounts k2n1 = mesh_node_counts(2, 1, false);
  EXPECT_EQ(k2n1.global_nodes, 27u);
  EXPECT_EQ(k2n1.local_nodes, 64u);
  EXPECT_EQ(k2n1.unmasked_local_nodes, 64u);
  EXPECT_EQ(gather_bytes(k2n1), 1096u);   // 28*4 + 64*4 + 64*8 + 27*8 = 112 + 256 + 512 + 216
  EXPECT_EQ(scatter_bytes(k2n1), 984u);   // 64*4 + 27*8 + 64*8 = 256 + 216 + 512

  // K=2, N=1 masked: Ng = 1^3 = 1, Nt = 64, Nu = (2*2-2)^3 = 8.
  const MeshNodeCounts k2n1m = mesh_node_counts(2, 1, true);
  EXPECT_EQ(k2n1m.global_nodes, 1u);
  EXPECT_EQ(k2n1m.unmasked_local_nodes, 8u);
  EXPECT_EQ(gather_bytes(k2n1m), 112u);   // 2*4 + 8*4 + 8*8 + 1*8 = 8 + 32 + 64 + 8 (was 784: x7.0)
  EXPECT_EQ(scatter_bytes(k2n1m), 328u);  // 64*4 + 1*8 + 8*8 = 256 + 8 + 64

  // K=2, N=7 masked: Ng = 13^3 = 2197, Nt = 8*512 = 4096, Nu = 14^3 = 2744.
  const MeshNodeCounts k2n7m = mesh_node_counts(2, 7, true);
  EXPECT_EQ(k2n7m.global_nodes, 2197u);
  EXPECT_EQ(k2n7m.local_nodes, 4096u);
  EXPECT_EQ(k2n7m.unmasked_local_nodes, 2744u);
  EXPECT_EQ(gather_bytes(k2n7m), 59296u);   // 2198*4 + 2744*4 + 2744*8 + 2197*8 = 8792 + 10976 + 21952 + 17576 (was 75520: +27 %)
  EXPECT_EQ(scatter_bytes(k2n7m), 55912u);  // 4096*4 + 2197*8 + 2744*8 = 16384 + 17576 + 21952

  // K=3, N=2 masked: Ng = 5^3 = 125, Nt = 27*27 = 729, Nu = (3*3-2)^3 = 343.
  const MeshNodeCounts k3n2m = mesh_node_counts(3, 2, true);
  EXPECT_EQ(gather_bytes(k3n2m), 5620u);   // 126*4 + 343*4 + 343*8 + 125*8 = 504 + 1372 + 2744 + 1000
  EXPECT_EQ(scatter_bytes(k3n2m), 6660u);  // 729*4 + 125*8 + 343*8 = 2916 + 1000 + 2744

  // K=1, N=1 masked: no global node, no unmasked local node, 8 ids still read.
  const MeshNodeCounts k1n1m = mesh_node_counts(1, 1, true);
  EXPECT_EQ(gather_bytes(k1n1m), 4u);    // 1*4: the one row start
  EXPECT_EQ(scatter_bytes(k1n1m), 32u);  // 8*4

  // A built mesh gives the same counts as the closed form.
  const HexMesh built = make_hex_mesh(2, 7, true);
  EXPECT_EQ(gather_bytes(node_counts(built)), 59296u);
  EXPECT_EQ(scatter_bytes(node_counts(built)), 55912u);
}

namespace {

std::uint64_t mesh_gather_bytes(int k, int n, bool masked) {
  const std::uint64_t span = static_cast<std::uint64_t>(k) * n;
  // The gather count written out: (Ng+1)*4 + Nu*12 + Ng*8.
  const std::uint64_t ng = masked ? cube(span - 1) : cube(span + 1);
  const std::uint64_t nu = masked ? cube(static_cast<std::uint64_t>(k) * (n + 1) - 2) : cube(k) * cube(n + 1);
  return (ng + 1) * 4 + nu * 12 + ng * 8;
}

double log_ratio(std::uint64_t bytes, std::uint64_t target) {
  return std::fabs(std::log(static_cast<double>(bytes) / static_cast<double>(target)));
}

}  // namespace

TEST(BsMesh, ElementsPerSideForBytesIsNearestAndMonotone) {
  for (const int n : {1, 2, 3, 5, 7, 15}) {
    for (const bool masked : {false, true}) {
      int previous_k = 1;
      for (double target = 1e3; target < 2e10; target *= 1.37) {
        const auto target_bytes = static_cast<std::uint64_t>(target);
        const int k = elements_per_side_for_bytes(n, target_bytes, masked);
        SCOPED_TRACE(testing::Message() << "N=" << n << " masked=" << masked << " target=" << target_bytes
                                        << " K=" << k);
        ASSERT_GE(k, 1);
        EXPECT_GE(k, previous_k);
        previous_k = k;
        EXPECT_LE(cube(k) * cube(n + 1), 2147483647u);
        const std::uint64_t bytes = mesh_gather_bytes(k, n, masked);
        const bool capped = cube(k + 1) * cube(n + 1) > 2147483647u;
        if (k > 1) {
          EXPECT_LE(log_ratio(bytes, target_bytes), log_ratio(mesh_gather_bytes(k - 1, n, masked), target_bytes));
        }
        if (!capped) {
          EXPECT_LE(log_ratio(bytes, target_bytes), log_ratio(mesh_gather_bytes(k + 1, n, masked), target_bytes));
          // Within one step of K of the target, the step to the neighbour on
          // the target's side (only K=1 can sit far above a tiny target).
          if (bytes <= target_bytes) {
            EXPECT_LE(log_ratio(bytes, target_bytes), log_ratio(mesh_gather_bytes(k + 1, n, masked), bytes));
          } else if (k > 1) {
            EXPECT_LE(log_ratio(bytes, target_bytes), log_ratio(bytes, mesh_gather_bytes(k - 1, n, masked)));
          }
        }
      }
    }
  }
  EXPECT_EQ(elements_per_side_for_bytes(7, 0, false), 1);
  // Far beyond int32: the largest K whose Nt fits (80^3 * 16^3 = 2.1e9).
  EXPECT_EQ(elements_per_side_for_bytes(15, std::uint64_t{1} << 60, false), 80);
  EXPECT_THROW(elements_per_side_for_bytes(0, 1 << 20, false), std::invalid_argument);
}
