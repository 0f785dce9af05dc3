#pragma once
// What BS1-BS7 do on the pinned Team: initialise (first touch by the
// owning thread), time one size (one warm-up run, then reps runs; thread 0
// reads the steady clock after the team's barrier and again after the
// barrier that ends the run, plus the combine of a reduction), and validate
// a separate run on freshly initialised inputs against host values.
#include <cstdint>
#include <vector>

#include "bs/BsMesh.hpp"
#include "bs/BsResults.hpp"
#include "bs/BsTypes.hpp"
#include "core/RunContext.hpp"

namespace bws::topo {
class Team;
}

namespace bws::bs {

// The arrays of a BS1-BS5 test: BS1/BS2/BS4 x, y; BS3 x; BS5 x, p, r, Ap.
struct BsVectorArrays {
  double* a[4] = {nullptr, nullptr, nullptr, nullptr};
};

// a[k][i] = bs_input(k, i) for the test's arrays, each thread its share.
void bs_init_vectors(topo::Team& team, BsTest test, const BsVectorArrays& arrays, std::uint64_t n);
// One call of the test on the team; returns the reduction (BS3, BS4: the sum;
// BS5: beta = r.r) or 0.
double bs_vector_once(topo::Team& team, BsTest test, const BsVectorArrays& arrays, std::uint64_t n);
// Checks the arrays and scalar of ONE call on inputs from bs_init_vectors:
// arrays element-wise (exact dyadic values; allowed 2 ulp relative), scalars
// against a Kahan sum on the host, allowed |s - kahan| <= 2 n eps sum|terms|
// (twice the classical (n-1) u sum|x_i| bound of recursive summation, which
// also covers the threads' partial sums).
BsValidation bs_validate_vectors(BsTest test, const BsVectorArrays& arrays, std::uint64_t n, double scalar);
// Initialise, time (warm-up + reps), re-initialise, validate one call.
// T0 as CPU threads pay it: the best time of an empty call between the same
// barriers and clock reads as every kernel's (the fork/join of a parallel
// loop), over `reps` calls.
double bs_measure_empty_call_seconds(topo::Team& team, RunContext& context, int reps);

BsPoint bs_measure_vector_point(topo::Team& team, RunContext& context, BsTest test, const BsVectorArrays& arrays,
                                std::uint64_t n, int reps);

// Kahan-compensated sum of term(i), i < n.
template <class F>
double kahan_sum(std::uint64_t n, F term) {
  double sum = 0, c = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const double y = term(i) - c;
    const double t = sum + y;
    c = (t - sum) - y;
    sum = t;
  }
  return sum;
}

// A mesh copied into the rank's NUMA buffer, ready for the team.
struct BsMeshOnTeam {
  std::uint64_t local_nodes = 0, global_nodes = 0, blocks = 0;
  std::uint64_t unmasked_local_nodes = 0;  // what the byte counts move (BsMesh.hpp)
  std::int32_t* row_starts = nullptr;
  std::int32_t* local_ids = nullptr;
  std::int32_t* scatter_ids = nullptr;
  std::int32_t* block_starts = nullptr;   // host memory: blocks + 1 row indices
  double* x_L = nullptr;
  double* x_G = nullptr;
  std::vector<std::uint64_t> thread_blocks;  // thread t runs blocks [tb[t], tb[t+1]), balanced by nonzeros
  std::vector<std::int32_t> block_rows;      // block_starts' storage
  std::vector<std::uint64_t> multiplicities; // multiplicity_histogram of the CSR
};

// Lays the mesh and its CSR out in `buffer` (mesh_layout order), the copy
// done by the team in shares, and splits the row blocks among the threads.
BsMeshOnTeam bs_place_mesh(topo::Team& team, const HexMesh& mesh, const GatherCsr& csr, unsigned char* buffer);
// Threads' block ranges: thread t starts at the first block whose first
// nonzero is at or past t * nonzeros / threads.
std::vector<std::uint64_t> balance_blocks(const GatherCsr& csr, int threads);

// The checks of the two validations on plain host arrays (the device
// backend reads its results back and judges them with the same functions).
// x_G after a gather of ones: row g's length, with the mesh's histogram.
BsValidation bs_check_gather_of_ones(const std::int32_t* row_starts, const double* x_G, std::uint64_t global_nodes,
                                     const std::vector<std::uint64_t>& multiplicities);
// x_L after scatter of that x_G into x_L = -1: the multiplicity, or -1 where masked.
BsValidation bs_check_scatter_after_gather(const std::int32_t* scatter_ids, const std::int32_t* row_starts,
                                           const double* x_L, std::uint64_t local_nodes);

void bs_gather_once(topo::Team& team, const BsMeshOnTeam& m);
void bs_scatter_once(topo::Team& team, const BsMeshOnTeam& m);
// Gather of ones: x_G[g] equals row g's length, and the values' histogram
// equals multiplicity_histogram (1, 2, 4, 8 ...). Leaves x_G = multiplicity.
BsValidation bs_validate_gather(topo::Team& team, const BsMeshOnTeam& m);
// Scatter after gather: with x_G = multiplicity (from gather of ones), every
// unmasked local node receives its global node's multiplicity, and masked
// ones keep the sentinel -1 they were set to.
BsValidation bs_validate_scatter(topo::Team& team, const BsMeshOnTeam& m);
// Times BS6 (gather) or BS7 (scatter) on the placed mesh and validates it.
BsPoint bs_measure_mesh_point(topo::Team& team, RunContext& context, BsTest test, const BsMeshOnTeam& m, int reps);

}  // namespace bws::bs
