#pragma once
// The schemas of the roofline's tables (docs/hdf5-schema.md):
// roofline/results: one row per rank, kernel (FMA, GEMM, Triad) and type,
//   samples in roofline/times;
// roofline/ranks: one row per rank: its ceilings and machine balance;
// roofline/nodes: one row per node: the same, its ranks together.
#include "core/Table.hpp"

namespace bws::roofline {

inline constexpr const char* kResultsPath = "roofline/results";
inline constexpr const char* kTimesPath = "roofline/times";
inline constexpr const char* kRanksPath = "roofline/ranks";
inline constexpr const char* kNodesPath = "roofline/nodes";
inline constexpr const char* kBackendCpu = "cpu";
inline constexpr std::size_t kImplementationWidth = 128;  // OpenBLAS' configuration text

// rank, host, backend, kernel, threads, type, implementation, iterations,
// matrix_n, elements, reps, flops, flop_rate, bytes, t_min, t_avg, t_max,
// bandwidth, valid.
Table make_roofline_results_table();

// The ceilings columns of roofline/ranks and roofline/nodes, after their
// leading columns (rank, host, threads / host, ranks, threads): isa, blas,
// fma_double_flop_per_s, fma_float_flop_per_s, gemm_double_flop_per_s,
// gemm_float_flop_per_s, triad_Bps, balance_fma_double_flop_per_byte,
// balance_fma_float_flop_per_byte, balance_gemm_double_flop_per_byte,
// balance_gemm_float_flop_per_byte, valid.
Table make_roofline_ranks_table();
Table make_roofline_nodes_table();

}  // namespace bws::roofline
