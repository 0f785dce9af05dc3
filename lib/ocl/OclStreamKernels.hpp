#pragma once
// The OpenCL C source of device STREAM (as HPCC_FPGA's), generated for the
// element type, vector width, block (local buffer) size and unroll factor.
//   combined:  stream_calc(in1, in2, out, scalar, add): per block of a
//              work-group, buf = scalar * in1; if add, buf += in2; out = buf
//              (Copy: scalar 1; Scale: scalar s; Add: scalar 1 + in2;
//              Triad: in1 = C, in2 = B, out = A, scalar s).
//   separate:  stream_copy, stream_scale, stream_add, stream_triad, one
//              per operation, over the same blocks, without the buffer.
// Each work-item handles the same indices of its block in every loop, so
// the buffer needs no barrier. FP_CONTRACT is off: the results are the
// same bits the host's scalar replay predicts.
#include <cstdint>
#include <string>

#include "ocl/OclStreamPlan.hpp"

namespace bws::ocl {

inline constexpr const char* kCombinedKernel = "stream_calc";
inline constexpr const char* kCopyKernel = "stream_copy";
inline constexpr const char* kScaleKernel = "stream_scale";
inline constexpr const char* kAddKernel = "stream_add";
inline constexpr const char* kTriadKernel = "stream_triad";

std::string stream_kernel_source(const OclStreamParams& params);

// "double", "float4": the kernels' vector type.
std::string stream_vector_type(const OclStreamParams& params);

// Work-items per block: the buffer size, at most the device's (or the
// kernel's) limit, so each work-item's loop runs as few times as the device
// allows: PoCL turns the work-items of a group into a vectorised loop, which
// it can do only when the kernel's own loop runs once (a cap of 256 gave
// 3.3 GB/s Triad on PoCL here, no cap 33 GB/s).
std::uint64_t stream_work_group_size(const OclStreamParams& params, std::uint64_t device_limit);

}  // namespace bws::ocl
