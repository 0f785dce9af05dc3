#include "ocl/OclBsKernels.hpp"

#include <algorithm>

namespace bws::ocl {

BsCallShape bs_call_shape(bs::BsTest test) {
  const bool reduction = test == bs::BsTest::Norm || test == bs::BsTest::Dot || test == bs::BsTest::CgUpdate;
  return reduction ? BsCallShape{2, true} : BsCallShape{1, false};
}

std::uint64_t bs_block_size(std::uint64_t device_limit) {
  const std::uint64_t limit = device_limit > 0 ? std::min(kBsBlockSize, device_limit) : kBsBlockSize;
  std::uint64_t size = 1;
  while (size * 2 <= limit) size *= 2;
  return size;
}

std::string bs_kernel_source(std::uint64_t block_size, std::uint64_t nodes_per_block) {
  std::string s =
      "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
      "#pragma OPENCL FP_CONTRACT OFF\n"
      "#define BLOCK " + std::to_string(block_size) + "\n"
      "#define NODES_PER_BLOCK " + std::to_string(nodes_per_block) + "\n";
  s += R"CLC(
__kernel void bs_empty(void) {}

// BS1: y = x
__kernel void bs1_copy(const ulong n, __global const double* restrict x, __global double* restrict y) {
  const size_t i = get_global_id(0);
  if (i < n) y[i] = x[i];
}

// BS2: y = alpha x + beta y
__kernel void bs2_axpy(const ulong n, const double alpha, __global const double* restrict x, const double beta,
                       __global double* restrict y) {
  const size_t i = get_global_id(0);
  if (i < n) y[i] = alpha * x[i] + beta * y[i];
}

// The tree of one work-group's sums in local memory; work-item 0 writes it.
#define GROUP_SUM(value, out)                                    \
  __local double s_sum[BLOCK];                                   \
  const uint t = get_local_id(0);                                \
  s_sum[t] = value;                                              \
  barrier(CLK_LOCAL_MEM_FENCE);                                  \
  for (uint k = BLOCK / 2; k > 0; k >>= 1) {                     \
    if (t < k) s_sum[t] += s_sum[t + k];                         \
    barrier(CLK_LOCAL_MEM_FENCE);                                \
  }                                                              \
  if (t == 0) out[get_group_id(0)] = s_sum[0];

// BS3 first kernel: partial sums of x.x, one per work-group
__kernel void bs3_norm_partial(const ulong n, __global const double* restrict x, __global double* restrict partial) {
  double sum = 0.0;
  for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) sum += x[i] * x[i];
  GROUP_SUM(sum, partial)
}

// BS4 first kernel: partial sums of x.y
__kernel void bs4_dot_partial(const ulong n, __global const double* restrict x, __global const double* restrict y,
                              __global double* restrict partial) {
  double sum = 0.0;
  for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) sum += x[i] * y[i];
  GROUP_SUM(sum, partial)
}

// BS5 first kernel: x += alpha p; r -= alpha Ap; partial sums of the new r.r
__kernel void bs5_cg_update_partial(const ulong n, const double alpha, __global double* restrict x,
                                    __global const double* restrict p, __global double* restrict r,
                                    __global const double* restrict Ap, __global double* restrict partial) {
  double sum = 0.0;
  for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) {
    x[i] += alpha * p[i];
    const double rn = r[i] - alpha * Ap[i];
    r[i] = rn;
    sum += rn * rn;
  }
  GROUP_SUM(sum, partial)
}

// Second kernel of BS3-BS5: one work-group reduces the partial sums to result[0]
__kernel void bs_finish_sum(const uint count, __global const double* restrict partial, __global double* restrict result) {
  double sum = 0.0;
  for (uint i = get_local_id(0); i < count; i += BLOCK) sum += partial[i];
  GROUP_SUM(sum, result)
}

// BS6: x_G = Z^T x_L, one work-group per block of rows (Chalmers & Warburton, listing 4):
// the block's nonzeros are staged in local memory, then each work-item sums rows.
__kernel void bs6_gather(__global const int* restrict block_starts, __global const int* restrict row_starts,
                         __global const int* restrict local_ids, __global const double* restrict x_L,
                         __global double* restrict x_G) {
  __local double temp[NODES_PER_BLOCK];
  const int b = get_group_id(0);
  const int t = get_local_id(0);
  const int block_start = block_starts[b], block_end = block_starts[b + 1];
  const int first = row_starts[block_start], last = row_starts[block_end];
  for (int i = t; first + i < last; i += BLOCK) temp[i] = x_L[local_ids[first + i]];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int row = block_start + t; row < block_end; row += BLOCK) {
    const int begin = row_starts[row] - first, end = row_starts[row + 1] - first;
    double sum = 0.0;
    for (int i = begin; i < end; ++i) sum += temp[i];
    x_G[row] = sum;
  }
}

// BS7: x_L = Z x_G; masked local nodes (id < 0) are skipped
__kernel void bs7_scatter(const ulong n, __global const int* restrict ids, __global const double* restrict x_G,
                          __global double* restrict x_L) {
  const size_t i = get_global_id(0);
  if (i < n) {
    const int id = ids[i];
    if (id >= 0) x_L[i] = x_G[id];
  }
}
)CLC";
  return s;
}

}  // namespace bws::ocl
