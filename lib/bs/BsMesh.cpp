#include "bs/BsMesh.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace bws::bs {
namespace {

constexpr std::uint64_t kInt32Max = static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max());
// Any K or N above this already makes Nt = K^3 (N+1)^3 exceed int32 (1291^3 > 2^31),
// and checking it first keeps every product below in range of uint64.
constexpr int kLargestSideOrDegree = 1290;

std::uint64_t cube(std::uint64_t x) { return x * x * x; }

std::uint64_t local_nodes_of(int elements_per_side, int degree) {
  return cube(static_cast<std::uint64_t>(elements_per_side)) * cube(static_cast<std::uint64_t>(degree) + 1);
}

std::uint64_t global_nodes_of(int elements_per_side, int degree, bool masked) {
  const std::uint64_t lattice_span = static_cast<std::uint64_t>(elements_per_side) * static_cast<std::uint64_t>(degree);
  return masked ? cube(lattice_span - 1) : cube(lattice_span + 1);
}

// Per axis K(N+1) local positions, of which masking removes the first of the
// first element and the last of the last element.
std::uint64_t unmasked_local_nodes_of(int elements_per_side, int degree, bool masked) {
  if (!masked) return local_nodes_of(elements_per_side, degree);
  const std::uint64_t positions = static_cast<std::uint64_t>(elements_per_side) * (static_cast<std::uint64_t>(degree) + 1);
  return cube(positions - 2);
}

// Nt bounds everything the CSR stores as int32 (local ids, row starts, and Ng <= Nt).
bool fits_int32(int elements_per_side, int degree) {
  if (elements_per_side > kLargestSideOrDegree || degree > kLargestSideOrDegree) return false;
  return local_nodes_of(elements_per_side, degree) <= kInt32Max;
}

void validate_mesh_shape(int elements_per_side, int degree) {
  if (elements_per_side < 1) {
    throw std::invalid_argument("BS mesh: elements per side must be >= 1, got " + std::to_string(elements_per_side));
  }
  if (degree < 1) throw std::invalid_argument("BS mesh: degree must be >= 1, got " + std::to_string(degree));
  if (!fits_int32(elements_per_side, degree)) {
    throw std::invalid_argument("BS mesh: K=" + std::to_string(elements_per_side) + ", N=" + std::to_string(degree) +
                                " has more than 2^31-1 local nodes (ids are int32)");
  }
}

// Global index of each lattice coordinate 0..KN along one axis: the coordinate
// itself, or (masked) its position among the interior coordinates 1..KN-1 and
// -1 on the boundary. The 3D id is then the lexicographic combination.
std::vector<std::int32_t> axis_ids(int lattice_span, bool masked) {
  std::vector<std::int32_t> ids(static_cast<std::size_t>(lattice_span) + 1);
  for (int c = 0; c <= lattice_span; ++c) {
    const bool boundary = c == 0 || c == lattice_span;
    ids[static_cast<std::size_t>(c)] = !masked ? c : (boundary ? -1 : c - 1);
  }
  return ids;
}

std::int32_t combine_axis_ids(std::int32_t x, std::int32_t y, std::int32_t z, std::int64_t ids_per_axis) {
  if (x < 0 || y < 0 || z < 0) return -1;
  return static_cast<std::int32_t>((z * ids_per_axis + y) * ids_per_axis + x);
}

}  // namespace

HexMesh make_hex_mesh(int elements_per_side, int degree, bool mask_boundary) {
  validate_mesh_shape(elements_per_side, degree);
  HexMesh mesh;
  mesh.elements_per_side = elements_per_side;
  mesh.degree = degree;
  mesh.masked = mask_boundary;
  mesh.elements = cube(static_cast<std::uint64_t>(elements_per_side));
  mesh.nodes_per_element = cube(static_cast<std::uint64_t>(degree) + 1);
  mesh.local_nodes = mesh.elements * mesh.nodes_per_element;
  mesh.global_nodes = global_nodes_of(elements_per_side, degree, mask_boundary);
  mesh.unmasked_local_nodes = unmasked_local_nodes_of(elements_per_side, degree, mask_boundary);

  const int lattice_span = elements_per_side * degree;  // < 2^31: validated via Nt
  const std::vector<std::int32_t> ids = axis_ids(lattice_span, mask_boundary);
  const std::int64_t ids_per_axis = mask_boundary ? lattice_span - 1 : lattice_span + 1;

  mesh.local_to_global.resize(mesh.local_nodes);
  std::int32_t* out = mesh.local_to_global.data();
  for (int ez = 0; ez < elements_per_side; ++ez)
    for (int ey = 0; ey < elements_per_side; ++ey)
      for (int ex = 0; ex < elements_per_side; ++ex)
        for (int k = 0; k <= degree; ++k)
          for (int j = 0; j <= degree; ++j)
            for (int i = 0; i <= degree; ++i)
              *out++ = combine_axis_ids(ids[ex * degree + i], ids[ey * degree + j], ids[ez * degree + k], ids_per_axis);
  return mesh;
}

namespace {

// Counting sort of local nodes by global id: counts, prefix sum, then a
// pass in ascending local order, which leaves each row sorted for free.
void fill_rows(const HexMesh& mesh, GatherCsr& csr) {
  const std::size_t rows = mesh.global_nodes;
  csr.row_starts.assign(rows + 1, 0);
  for (const std::int32_t g : mesh.local_to_global) {
    if (g >= 0) ++csr.row_starts[static_cast<std::size_t>(g) + 1];
  }
  for (std::size_t g = 0; g < rows; ++g) csr.row_starts[g + 1] += csr.row_starts[g];

  csr.local_ids.resize(static_cast<std::size_t>(csr.row_starts[rows]));
  std::vector<std::int32_t> next_slot(csr.row_starts.begin(), csr.row_starts.end() - 1);
  const std::size_t locals = mesh.local_to_global.size();
  for (std::size_t l = 0; l < locals; ++l) {
    const std::int32_t g = mesh.local_to_global[l];
    if (g >= 0) csr.local_ids[static_cast<std::size_t>(next_slot[static_cast<std::size_t>(g)]++)] = static_cast<std::int32_t>(l);
  }
}

// Greedy from row 0: a block closes before the row that would overflow it,
// so every block but an oversized single row stays within the limit.
void fill_blocks(GatherCsr& csr, int max_block_nonzeros) {
  const std::size_t rows = csr.row_starts.size() - 1;
  csr.block_starts.assign(1, 0);
  std::int64_t block_nonzeros = 0;
  for (std::size_t g = 0; g < rows; ++g) {
    const std::int64_t row_nonzeros = csr.row_starts[g + 1] - csr.row_starts[g];
    if (block_nonzeros > 0 && block_nonzeros + row_nonzeros > max_block_nonzeros) {
      csr.block_starts.push_back(static_cast<std::int32_t>(g));
      block_nonzeros = 0;
    }
    block_nonzeros += row_nonzeros;
  }
  if (rows > 0) csr.block_starts.push_back(static_cast<std::int32_t>(rows));
}

}  // namespace

GatherCsr make_gather_csr(const HexMesh& mesh, int max_block_nonzeros) {
  if (max_block_nonzeros < 1) {
    throw std::invalid_argument("BS gather: max block nonzeros must be >= 1, got " + std::to_string(max_block_nonzeros));
  }
  if (mesh.local_to_global.size() != mesh.local_nodes || mesh.local_nodes > kInt32Max) {
    throw std::invalid_argument("BS gather: mesh is inconsistent or has more than 2^31-1 local nodes");
  }
  GatherCsr csr;
  fill_rows(mesh, csr);
  fill_blocks(csr, max_block_nonzeros);
  return csr;
}

std::vector<std::uint64_t> multiplicity_histogram(const GatherCsr& gather) {
  std::vector<std::uint64_t> histogram(1, 0);
  for (std::size_t g = 0; g + 1 < gather.row_starts.size(); ++g) {
    const auto multiplicity = static_cast<std::size_t>(gather.row_starts[g + 1] - gather.row_starts[g]);
    if (multiplicity >= histogram.size()) histogram.resize(multiplicity + 1, 0);
    ++histogram[multiplicity];
  }
  return histogram;
}

MeshNodeCounts mesh_node_counts(int elements_per_side, int degree, bool masked) {
  validate_mesh_shape(elements_per_side, degree);
  return {global_nodes_of(elements_per_side, degree, masked), local_nodes_of(elements_per_side, degree),
          unmasked_local_nodes_of(elements_per_side, degree, masked)};
}

// The row blocks' starts are not counted: the CPU reads them only at its
// threads' boundaries, a device 4 B per block of <= 512 nonzeros (< 0.1 %),
// and both backends must count alike to compare.
std::uint64_t gather_bytes(const MeshNodeCounts& n) {
  std::uint64_t read_bytes = 0, write_bytes = 0;
  read_bytes += (n.global_nodes + 1) * 4;         // row starts, int32, Ng + 1
  read_bytes += n.unmasked_local_nodes * 4;       // local ids, int32: only unmasked nodes are in a row
  read_bytes += n.unmasked_local_nodes * 8;       // x_L values, double: the ones the ids name
  write_bytes += n.global_nodes * 8;              // x_G, double, one per row
  return read_bytes + write_bytes;
}

std::uint64_t scatter_bytes(const MeshNodeCounts& n) {
  std::uint64_t read_bytes = 0, write_bytes = 0;
  read_bytes += n.local_nodes * 4;                // scatter ids, int32: all Nt, masked ones (-1) included
  read_bytes += n.global_nodes * 8;               // x_G, double: each global node
  write_bytes += n.unmasked_local_nodes * 8;      // x_L, double: masked entries are skipped
  return read_bytes + write_bytes;
}

namespace {

std::uint64_t gather_bytes_for(int elements_per_side, int degree, bool masked) {
  return gather_bytes({global_nodes_of(elements_per_side, degree, masked), local_nodes_of(elements_per_side, degree),
                       unmasked_local_nodes_of(elements_per_side, degree, masked)});
}

// Closeness in ratio terms, so 2x too big and 2x too small count the same.
double log_distance(std::uint64_t bytes, std::uint64_t target_bytes) {
  return std::fabs(std::log(static_cast<double>(bytes)) - std::log(static_cast<double>(target_bytes)));
}

}  // namespace

int elements_per_side_for_bytes(int degree, std::uint64_t target_bytes, bool mask_boundary) {
  validate_mesh_shape(1, degree);
  int elements_per_side = 1;
  while (gather_bytes_for(elements_per_side, degree, mask_boundary) < target_bytes &&
         fits_int32(elements_per_side + 1, degree)) {
    ++elements_per_side;
  }
  // Here K is the first one reaching the target (or the int32 cap): the
  // answer is K or K-1, whichever is nearer in ratio; a tie goes to the smaller.
  if (elements_per_side == 1 || target_bytes == 0) return elements_per_side;
  const std::uint64_t above = gather_bytes_for(elements_per_side, degree, mask_boundary);
  const std::uint64_t below = gather_bytes_for(elements_per_side - 1, degree, mask_boundary);
  return log_distance(below, target_bytes) <= log_distance(above, target_bytes) ? elements_per_side - 1
                                                                                 : elements_per_side;
}

}  // namespace bws::bs
