#include "ocl/OclStreamKernels.hpp"

#include <algorithm>

namespace bws::ocl {

std::string stream_vector_type(const OclStreamParams& p) {
  const std::string scalar(stream::type_name(p.type));
  return p.vector_count == 1 ? scalar : scalar + std::to_string(p.vector_count);
}

std::uint64_t stream_work_group_size(const OclStreamParams& p, std::uint64_t device_limit) {
  std::uint64_t size = p.buffer_size;
  if (device_limit > 0) size = std::min(size, device_limit);
  return std::max<std::uint64_t>(size, 1);
}

std::string stream_kernel_source(const OclStreamParams& p) {
  const std::string scalar(stream::type_name(p.type));
  const std::string unroll = "#pragma unroll " + std::to_string(p.unroll) + "\n";
  std::string s;
  if (p.type == stream::StreamType::Double) s += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  s += "#pragma OPENCL FP_CONTRACT OFF\n";
  s += "typedef " + stream_vector_type(p) + " VT;\n";
  s += "typedef " + scalar + " ST;\n";
  s += "#define BUFFER_SIZE " + std::to_string(p.buffer_size) + "u\n";
  // The block of this work-group and the indices its work-item owns.
  s += "#define BLOCK_LOOP for (uint i = get_local_id(0); i < BUFFER_SIZE; i += (uint)get_local_size(0))\n";
  s += "#define BLOCK_BASE ((ulong)get_group_id(0) * BUFFER_SIZE)\n";
  if (p.single_kernel) {
    s += "__kernel void stream_calc(__global const VT* restrict in1, __global const VT* restrict in2,\n"
         "                          __global VT* restrict out, const ST scalar, const uint add) {\n"
         "  __local VT buf[BUFFER_SIZE];\n"
         "  const ulong base = BLOCK_BASE;\n" +
         unroll +
         "  BLOCK_LOOP buf[i] = scalar * in1[base + i];\n"
         "  if (add) {\n" +
         unroll +
         "    BLOCK_LOOP buf[i] += in2[base + i];\n"
         "  }\n" +
         unroll +
         "  BLOCK_LOOP out[base + i] = buf[i];\n"
         "}\n";
    return s;
  }
  s += "__kernel void stream_copy(__global const VT* restrict a, __global VT* restrict c) {\n"
       "  const ulong base = BLOCK_BASE;\n" +
       unroll + "  BLOCK_LOOP c[base + i] = a[base + i];\n}\n";
  s += "__kernel void stream_scale(__global const VT* restrict c, __global VT* restrict b, const ST scalar) {\n"
       "  const ulong base = BLOCK_BASE;\n" +
       unroll + "  BLOCK_LOOP b[base + i] = scalar * c[base + i];\n}\n";
  s += "__kernel void stream_add(__global const VT* restrict a, __global const VT* restrict b,\n"
       "                         __global VT* restrict c) {\n"
       "  const ulong base = BLOCK_BASE;\n" +
       unroll + "  BLOCK_LOOP c[base + i] = a[base + i] + b[base + i];\n}\n";
  s += "__kernel void stream_triad(__global const VT* restrict b, __global const VT* restrict c,\n"
       "                           __global VT* restrict a, const ST scalar) {\n"
       "  const ulong base = BLOCK_BASE;\n" +
       unroll + "  BLOCK_LOOP a[base + i] = b[base + i] + scalar * c[base + i];\n}\n";
  return s;
}

}  // namespace bws::ocl
