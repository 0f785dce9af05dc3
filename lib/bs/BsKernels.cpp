// Compiled with -fno-tree-loop-distribute-patterns (lib/CMakeLists.txt): the
// copy must stay a loop, not become memcpy with its non-temporal stores.
#include "bs/BsKernels.hpp"

namespace bws::bs {

void bs_copy(const double* __restrict x, double* __restrict y, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) y[i] = x[i];
}

void bs_axpy(double a, const double* __restrict x, double b, double* __restrict y, std::size_t begin,
             std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) y[i] = a * x[i] + b * y[i];
}

namespace {
constexpr std::size_t kLanes = 8;
double add_lanes(const double (&s)[kLanes]) {
  return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}
}  // namespace

double bs_norm_partial(const double* __restrict x, std::size_t begin, std::size_t end) {
  double s[kLanes] = {};
  std::size_t i = begin;
  for (; i + kLanes <= end; i += kLanes)
    for (std::size_t k = 0; k < kLanes; ++k) s[k] += x[i + k] * x[i + k];
  for (; i < end; ++i) s[0] += x[i] * x[i];
  return add_lanes(s);
}

double bs_dot_partial(const double* __restrict x, const double* __restrict y, std::size_t begin, std::size_t end) {
  double s[kLanes] = {};
  std::size_t i = begin;
  for (; i + kLanes <= end; i += kLanes)
    for (std::size_t k = 0; k < kLanes; ++k) s[k] += x[i + k] * y[i + k];
  for (; i < end; ++i) s[0] += x[i] * y[i];
  return add_lanes(s);
}

double bs_cg_update_partial(double a, double* __restrict x, const double* __restrict p, double* __restrict r,
                            const double* __restrict Ap, std::size_t begin, std::size_t end) {
  double s[kLanes] = {};
  std::size_t i = begin;
  for (; i + kLanes <= end; i += kLanes)
    for (std::size_t k = 0; k < kLanes; ++k) {
      x[i + k] += a * p[i + k];
      const double rn = r[i + k] - a * Ap[i + k];
      r[i + k] = rn;
      s[k] += rn * rn;
    }
  for (; i < end; ++i) {
    x[i] += a * p[i];
    const double rn = r[i] - a * Ap[i];
    r[i] = rn;
    s[0] += rn * rn;
  }
  return add_lanes(s);
}

void bs_gather_rows(const std::int32_t* __restrict row_starts, const std::int32_t* __restrict local_ids,
                    const double* __restrict x_L, double* __restrict x_G, std::size_t row_begin, std::size_t row_end) {
  for (std::size_t g = row_begin; g < row_end; ++g) {
    double sum = 0;
    for (std::int32_t k = row_starts[g]; k < row_starts[g + 1]; ++k) sum += x_L[local_ids[k]];
    x_G[g] = sum;
  }
}

void bs_scatter(const std::int32_t* __restrict ids, const double* __restrict x_G, double* __restrict x_L,
                std::size_t begin, std::size_t end) {
  for (std::size_t l = begin; l < end; ++l) {
    const std::int32_t g = ids[l];
    if (g >= 0) x_L[l] = x_G[g];
  }
}

}  // namespace bws::bs
