#pragma once
// What one rank measured for the roofline: one record per kernel and type,
// with every timed sample, the work one call does, and its validation.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "stream/StreamTypes.hpp"

namespace bws::roofline {

using stream::StreamType;

enum class RooflineKernel { Fma, Gemm, Triad };

// "FMA", "GEMM", "Triad": the kernel column.
constexpr std::string_view kernel_name(RooflineKernel kernel) {
  return kernel == RooflineKernel::Fma ? "FMA" : kernel == RooflineKernel::Gemm ? "GEMM" : "Triad";
}

struct RooflineMeasurement {
  RooflineKernel kernel = RooflineKernel::Fma;
  StreamType type = StreamType::Double;
  std::string implementation;   // "avx512f", the BLAS, "nontemporal stores"
  std::uint64_t iterations = 0;  // FMA: loop iterations per thread and call
  std::uint64_t matrix_n = 0;    // GEMM: n of each thread's n x n multiply
  std::uint64_t elements = 0;    // Triad: elements per array
  std::uint64_t flops = 0;       // floating-point operations of one call, all threads (0 for Triad)
  std::uint64_t bytes = 0;       // bytes one call moves (Triad; 0 for FMA and GEMM)
  std::vector<double> seconds;   // the timed samples (the warm-up is not kept)
  // Validation: `wrong` values found (FMA: the largest relative distance
  // from the fixed point; GEMM: wrong entries; Triad: wrong elements) and
  // the most that passes.
  double wrong = 0, wrong_allowed = 0;
  std::string wrong_unit;
  bool validated() const { return wrong <= wrong_allowed; }
};

}  // namespace bws::roofline
