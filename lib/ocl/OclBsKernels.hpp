#pragma once
// The OpenCL C source of BS1-BS7 on the device, after Chalmers & Warburton's listings
// (streamParanumal's OKL): BS1/BS2/BS7 one work-item per entry; BS3-BS5 in
// two kernels, a partial reduction per work-group (a grid-strided loop as
// the paper's listing 3, then a tree in local memory) and a second kernel that reduces the partial sums
// to one value; BS6 the CSR gather with one work-group per row block of at
// most kMaxBlockNonzeros nonzeros staged in local memory. FP_CONTRACT is
// off, so the arrays are the bits the CPU backend computes.
#include <cstdint>
#include <string>

#include "bs/BsTypes.hpp"

namespace bws::ocl {

inline constexpr std::uint64_t kBsBlockSize = 256;     // work-items per group (a power of two)
inline constexpr std::uint64_t kBsReductionGroups = 512;  // partial sums of the first kernel, at most

inline constexpr const char* kBsCopyKernel = "bs1_copy";
inline constexpr const char* kBsAxpyKernel = "bs2_axpy";
inline constexpr const char* kBsNormKernel = "bs3_norm_partial";
inline constexpr const char* kBsDotKernel = "bs4_dot_partial";
inline constexpr const char* kBsCgKernel = "bs5_cg_update_partial";
inline constexpr const char* kBsFinishKernel = "bs_finish_sum";
inline constexpr const char* kBsGatherKernel = "bs6_gather";
inline constexpr const char* kBsScatterKernel = "bs7_scatter";
inline constexpr const char* kBsEmptyKernel = "bs_empty";

// What one timed call of a test is on the device (OclBsRunner times exactly
// this around each run, and its empty call for T0 has the same shape with
// empty kernels): BS1/BS2/BS6/BS7 one launch and a wait (clFinish); BS3-BS5
// the partial-sum kernel, the finishing kernel and the blocking read of the
// one result (that read is the wait).
struct BsCallShape {
  int launches = 1;
  bool reads_result = false;
  bool operator==(const BsCallShape&) const = default;
};
BsCallShape bs_call_shape(bs::BsTest test);

// block_size: work-items per group, a power of two (kBsBlockSize, or the
// device's limit when smaller); nodes_per_block: the gather's local stage.
std::string bs_kernel_source(std::uint64_t block_size, std::uint64_t nodes_per_block);

// The largest power of two <= min(kBsBlockSize, limit).
std::uint64_t bs_block_size(std::uint64_t device_limit);

}  // namespace bws::ocl
