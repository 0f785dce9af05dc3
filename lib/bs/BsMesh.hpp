#pragma once
// The mesh of BS6/BS7 (Chalmers & Warburton, streamParanumal): a box of K x K x K
// hexahedral elements of degree N, (N+1)^3 GLL nodes per element, global
// node ids shared by neighbouring elements across faces, edges and
// corners. Unmasked: Ng = (KN+1)^3 global nodes. Masked (all-Dirichlet
// boundary): boundary nodes get id -1 and are skipped, Ng = (KN-1)^3.
#include <cstdint>
#include <vector>

namespace bws::bs {

struct HexMesh {
  int elements_per_side = 0;               // K
  int degree = 0;                          // N
  bool masked = false;
  std::uint64_t elements = 0;              // K^3
  std::uint64_t nodes_per_element = 0;     // (N+1)^3
  std::uint64_t local_nodes = 0;           // Nt = K^3 (N+1)^3
  std::uint64_t global_nodes = 0;          // Ng
  // Local nodes with a global id: Nt unmasked, (K(N+1)-2)^3 masked (per axis
  // the first node of the first element and the last of the last are masked).
  std::uint64_t unmasked_local_nodes = 0;
  // scatterIds: for each local node (element-major, then i fastest, j, k),
  // its global id in 0..Ng-1, or -1 when masked.
  std::vector<std::int32_t> local_to_global;
};

// Throws std::invalid_argument for K < 1, N < 1, or a mesh whose ids do not
// fit in int32 (the caller validates options first and says which).
HexMesh make_hex_mesh(int elements_per_side, int degree, bool mask_boundary);

// The gather x_G = Z^T x_L in CSR form without values: for global row g,
// the local nodes local_ids[row_starts[g] .. row_starts[g+1]) add into it.
// Rows are cut into blocks of consecutive rows with at most
// max_block_nonzeros nonzeros each (a row longer than that - impossible
// here, at most 8 - would get a block of its own); block b covers rows
// block_starts[b] .. block_starts[b+1]).
struct GatherCsr {
  std::vector<std::int32_t> row_starts;    // Ng + 1
  std::vector<std::int32_t> local_ids;     // nonzeros, grouped by row
  std::vector<std::int32_t> block_starts;  // blocks + 1, first 0, last Ng
  std::uint64_t nonzeros() const { return local_ids.size(); }
  std::uint64_t blocks() const { return block_starts.empty() ? 0 : block_starts.size() - 1; }
};
inline constexpr int kMaxBlockNonzeros = 512;

GatherCsr make_gather_csr(const HexMesh& mesh, int max_block_nonzeros = kMaxBlockNonzeros);

// How many local nodes share each global node: histogram[m] = number of
// global nodes with multiplicity m (1, 2, 4 or 8 on this mesh).
std::vector<std::uint64_t> multiplicity_histogram(const GatherCsr& gather);

// The node counts the byte counts need (HexMesh and the plan's mesh points
// both give them; mesh_node_counts computes them without building the mesh).
struct MeshNodeCounts {
  std::uint64_t global_nodes = 0;          // Ng
  std::uint64_t local_nodes = 0;           // Nt
  std::uint64_t unmasked_local_nodes = 0;  // Nu: Nt, or (K(N+1)-2)^3 masked
};
MeshNodeCounts mesh_node_counts(int elements_per_side, int degree, bool masked);
inline MeshNodeCounts node_counts(const HexMesh& mesh) {
  return {mesh.global_nodes, mesh.local_nodes, mesh.unmasked_local_nodes};
}

// Bytes moved, as streamParanumal counts them (ids 4-byte ints, values
// 8-byte doubles), term by term in BsMesh.cpp. Masked local nodes are in
// no row of the gather, so only Nu local ids and values move:
// BS6 gather reads row starts (Ng+1)*4 + local ids Nu*4 + x_L Nu*8, writes x_G Ng*8.
std::uint64_t gather_bytes(const MeshNodeCounts& nodes);
// BS7 scatter reads every scatter id Nt*4 (a masked one, -1, must be read to
// be skipped) + x_G Ng*8, writes x_L Nu*8 (masked entries are not written).
std::uint64_t scatter_bytes(const MeshNodeCounts& nodes);

// The K whose gather bytes come closest to target_bytes for degree N (>= 1).
int elements_per_side_for_bytes(int degree, std::uint64_t target_bytes, bool mask_boundary);

}  // namespace bws::bs
