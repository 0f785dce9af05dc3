#pragma once
// BS1-BS7's resolved plan of one rank (its options: BsOptions.hpp): the tests, the byte sweep of BS1-BS5 (entries per point), the
// K sweep per degree of BS6/BS7, and the memory it needs. Every bad value is
// a UsageError of one line naming the option and what is allowed.
#include "core/ProgramOptionsFwd.hpp"
#include <cstdint>
#include <string>
#include <vector>

#include "bs/BsOptions.hpp"
#include "bs/BsTypes.hpp"
#include "core/Benchmark.hpp"
#include "core/Config.hpp"

namespace bws::bs {

// max-bytes auto: >= 16x the last-level cache. Above the LLC the bandwidth
// may still fall for a few times its size (victim L3s: Zen 5 reached its
// plateau at ~5x); the fit needs flat points beyond that (BsPlateau.hpp).
inline constexpr std::uint64_t kAutoLlcMultiple = 16;
inline constexpr std::uint64_t kAutoMinMaxBytes = 64ull << 20;  // and >= 64 MiB
inline constexpr std::uint64_t kQuickLlcMultiple = 8;          // --quick: 8x the LLC, so the fit has DRAM points
inline constexpr std::uint64_t kQuickMinMaxBytes = 16ull << 20;  // and >= 16 MiB
inline constexpr double kAutoMemoryFraction = 0.40;           // all ranks of a node within 40% of its memory
inline constexpr std::uint64_t kGranule = 8;                  // entries per share boundary: one cache line
inline constexpr std::uint64_t kArrayOffsetBytes = 256;       // array k shifted by k*256 B against 4 KiB aliasing

struct BsVectorPoint {
  std::uint64_t entries = 0;
  std::uint64_t bytes = 0;
};

struct BsMeshPoint {
  int elements_per_side = 0;      // K
  std::uint64_t local_nodes = 0;  // Nt
  std::uint64_t global_nodes = 0; // Ng
  std::uint64_t unmasked_local_nodes = 0;  // Nt, or (K(N+1)-2)^3 masked
  std::uint64_t gather_bytes = 0, scatter_bytes = 0;
};

struct BsDegreeSweep {
  int degree = 0;
  std::vector<BsMeshPoint> points;  // K ascending, no repeats
};

struct BsParams {
  std::vector<BsTest> tests;        // in test order
  std::uint64_t min_bytes = 0, max_bytes = 0;
  bool max_bytes_auto = true;
  int points = 24, reps = 20;
  std::vector<int> degrees;
  bool mask_boundary = false;
  int threads = 1, ranks_on_node = 1;
  // Points of at least this many bytes are fitted: by default the rank's
  // last-level cache, so Wmax is the memory's (see BsFit.hpp for why).
  std::uint64_t fit_min_bytes = 0;
  bool fit_min_bytes_auto = true;
  std::vector<std::uint64_t> target_bytes;             // the geometric sweep
  std::vector<std::vector<BsVectorPoint>> vector_points;  // per test BS1..BS5 (index test-1); empty if not run
  std::vector<BsDegreeSweep> mesh_sweeps;              // per degree, when BS6 or BS7 runs
  std::uint64_t vector_buffer_bytes = 0;  // NUMA buffer of BS1-BS5
  std::uint64_t mesh_buffer_bytes = 0;    // NUMA buffer of BS6/BS7 (ids, x_L, x_G of the largest mesh)
  std::uint64_t mesh_host_bytes = 0;      // the mesh and CSR built on the host, largest mesh
  std::uint64_t memory_bytes() const { return vector_buffer_bytes + mesh_buffer_bytes + mesh_host_bytes; }
  bool runs(BsTest t) const;
  bool runs_mesh() const { return runs(BsTest::Gather) || runs(BsTest::Scatter); }
};

// What a sweep is planned against: the CPU backend's rank (its last-level
// cache, its node's memory, its threads) or an OpenCL device (its global
// memory cache and global memory). "auto" sizes scale with llc_bytes.
struct BsTarget {
  std::uint64_t llc_bytes = 0;
  std::uint64_t memory_bytes = 0;  // 0 when unknown
  int threads = 1;                 // the smallest size gives every thread a cache line
  int ranks_sharing = 1;           // ranks that share memory_bytes
  bool quick = false;
  std::string memory_name = "node";  // in messages: "this node has ..."
};

void add_bs_options(boost::program_options::options_description& desc);
// The CPU backend: plan_bs_for the rank's topology and node.
BsParams plan_bs(const Config& config, const NodeContext& node);
BsParams plan_bs(const BsOptions& options, const NodeContext& node);
BsParams plan_bs_for(const Config& config, const BsTarget& target);
BsParams plan_bs_for(const BsOptions& options, const BsTarget& target);
std::string describe_bs(const BsParams& params);
// "fit on the plateau (>= 4 flat sizes) looked for in 32 MiB .. 512 MiB (8 sizes)": how far the fit may reach.
std::string describe_fit_range(const BsParams& params);

// Byte layout of the arrays of a BS1-BS5 test in its buffer: array k at
// k * (stride) + k * 256; stride = entries*8 rounded up to a page.
std::uint64_t vector_array_stride(std::uint64_t max_entries);
std::uint64_t vector_buffer_bytes_for(int arrays, std::uint64_t max_entries);

// The node counts of a K x K x K mesh of degree N (as BsMesh builds it).
BsMeshPoint mesh_point(int elements_per_side, int degree, bool masked);

// Byte layout of a mesh in its buffer: row_starts, local_ids, scatter ids,
// x_L, x_G, each starting on a page.
struct BsMeshLayout {
  std::uint64_t row_starts = 0, local_ids = 0, scatter_ids = 0, x_L = 0, x_G = 0, total = 0;
};
BsMeshLayout mesh_layout(std::uint64_t global_nodes, std::uint64_t local_nodes);

}  // namespace bws::bs
