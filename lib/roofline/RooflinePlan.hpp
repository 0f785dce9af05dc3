#pragma once
// The resolved plan of one rank, from the typed options (RooflineOptions.hpp): the FMA kernel's instruction set,
// sample length and repetitions, the GEMM size, and the Triad arrays (the
// STREAM options' size, stores and offsets, in double). Every bad value is a
// UsageError of one line naming the option and what is allowed.
#include "core/ProgramOptionsFwd.hpp"
#include <cstdint>
#include <string>

#include "core/Benchmark.hpp"
#include "core/Config.hpp"
#include "roofline/FmaKernels.hpp"
#include "roofline/RooflineOptions.hpp"
#include "stream/StreamLayout.hpp"
#include "stream/StreamOptions.hpp"
#include "stream/StreamTypes.hpp"

namespace bws::roofline {

inline constexpr std::uint64_t kAutoGemmN = 1024;   // 2 GFLOP per thread and call: tens of ms per core
inline constexpr std::uint64_t kQuickGemmN = 512;
// All ranks' GEMM matrices of a node within this share of its memory (the
// Triad arrays have STREAM's 40 % beside them).
inline constexpr double kGemmMemoryFraction = 0.20;
inline constexpr std::uint64_t kMatrixOffsetBytes = 256;  // matrix k shifted by k*256 B against 4 KiB aliasing

struct RooflineParams {
  VectorIsa isa = VectorIsa::Scalar;
  bool isa_auto = true;
  double min_time_seconds = 0.1;  // an FMA sample lasts at least this
  int reps = 5;                   // timed samples per kernel, after one warm-up
  int threads = 1, ranks_on_node = 1;

  bool gemm = false;  // a BLAS is linked in
  std::uint64_t gemm_n = 0;
  bool gemm_n_auto = true;
  std::uint64_t gemm_matrix_stride_bytes = 0;  // from one matrix of a thread to the next
  std::uint64_t gemm_thread_stride_bytes = 0;  // from one thread's three matrices to the next thread's
  std::uint64_t gemm_buffer_bytes = 0;         // all threads' matrices

  std::uint64_t triad_elements = 0;  // per array (the --stream.elements rule)
  stream::StoreKind triad_stores = stream::StoreKind::Normal;
  stream::StreamLayout triad_layout;  // double arrays a, b, c

  std::uint64_t memory_bytes() const { return gemm_buffer_bytes + triad_layout.total_bytes; }
};

// Resolves the options against this rank's node; throws UsageError.
// `stream_options`: the STREAM options the Triad follows (in double, with
// its own repetitions).
RooflineParams plan_roofline(const RooflineOptions& options, const stream::StreamOptions& stream_options,
                             const NodeContext& node);
// The same from the Config: both schemas read once, then the plan.
RooflineParams plan_roofline(const Config& config, const NodeContext& node);

// "avx512f FMA, 0.1 s samples, DGEMM/SGEMM n=1024 per thread (OpenBLAS), Triad 16777216 elements, 5 repetitions"
std::string describe_roofline(const RooflineParams& params);

// Seconds the plan takes: FMA per type ~ calibration (1.5 x min-time) + reps x 1.1 x min-time; DGEMM/SGEMM
// (reps + 1) x 2n^3 flops per thread at an assumed 10 GFLOP/s per thread; Triad (reps + 1) x 24 B x n / the
// probed memory bandwidth; plus the first touch of the buffers.
TimeEstimate estimate_roofline(const RooflineParams& params, const MachineSpeed& speed);

}  // namespace bws::roofline
