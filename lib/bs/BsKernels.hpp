#pragma once
// The loops of BS1-BS7 on one thread's range. Reductions return the
// thread's partial sum (eight independent accumulators, so the loop is not
// bound by the latency of one add chain); the caller combines the threads'.
#include <cstddef>
#include <cstdint>

namespace bws::bs {

void bs_copy(const double* x, double* y, std::size_t begin, std::size_t end);
void bs_axpy(double a, const double* x, double b, double* y, std::size_t begin, std::size_t end);
double bs_norm_partial(const double* x, std::size_t begin, std::size_t end);
double bs_dot_partial(const double* x, const double* y, std::size_t begin, std::size_t end);
// x += a*p; r -= a*Ap; returns sum of the new r*r.
double bs_cg_update_partial(double a, double* x, const double* p, double* r, const double* Ap, std::size_t begin,
                            std::size_t end);
// For rows [row_begin, row_end): x_G[g] = sum of x_L[local_ids[k]], k in row_starts[g]..row_starts[g+1).
void bs_gather_rows(const std::int32_t* row_starts, const std::int32_t* local_ids, const double* x_L, double* x_G,
                    std::size_t row_begin, std::size_t row_end);
// For local nodes [begin, end): x_L[l] = x_G[ids[l]]; ids < 0 (masked) are skipped.
void bs_scatter(const std::int32_t* ids, const double* x_G, double* x_L, std::size_t begin, std::size_t end);

// The scalars of the kernels (exact in binary, so the expected arrays are exact).
inline constexpr double kAxpyA = 0.75, kAxpyB = 0.5, kCgAlpha = 0.25;

// Deterministic, non-trivial inputs (dyadic, so products and sums of few
// terms are exact): array k of BS1-BS5 at entry i.
inline double bs_input(int array, std::size_t i) {
  switch (array) {
    case 0: return 1.0 + static_cast<double>(i % 7) / 8.0;    // x
    case 1: return 2.0 - static_cast<double>(i % 5) / 16.0;   // y (BS1/2/4), p (BS5)
    case 2: return 1.0 - static_cast<double>(i % 9) / 32.0;   // r (BS5)
    default: return static_cast<double>(i % 11) / 64.0;      // Ap (BS5)
  }
}
// x_L of the timed gather runs.
inline double bs_local_input(std::size_t l) { return 1.0 + static_cast<double>(l % 13) / 16.0; }

}  // namespace bws::bs
