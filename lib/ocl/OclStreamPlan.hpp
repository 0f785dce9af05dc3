#pragma once
// STREAM on an OpenCL device as HPCC_FPGA builds it: the arrays
// are cut into blocks of buffer-size vectors of vector-count elements; each
// of the replications owns a contiguous part of every array (its own
// buffers); a work-group streams one block through a local buffer. There
// is no bounds check in the kernels, so the length must be a multiple of
// replications x vector-count x buffer-size: any other length is a usage
// error that names the nearest valid lengths.
#include <cstdint>
#include <string>

#include "core/Config.hpp"
#include "ocl/OclOptions.hpp"
#include "ocl/OclDeviceInfo.hpp"
#include "stream/StreamDevice.hpp"
#include "stream/StreamOptions.hpp"
#include "stream/StreamTypes.hpp"
#include "stream/StreamValidation.hpp"

namespace bws::ocl {

inline constexpr std::uint64_t kAutoMinElements = 10000000;  // STREAM 5.10's 10^7
inline constexpr std::uint64_t kAutoCacheMultiple = 4;       // each array >= 4x the device's global memory cache
inline constexpr double kAutoMemoryFraction = 0.40;          // the ranks sharing a device within 40% of its memory

struct OclStreamParams {
  stream::StreamType type = stream::StreamType::Double;
  std::uint64_t elements = 0;  // per array, all replications together
  bool elements_auto = true;
  int replications = 1;
  int vector_count = 1;
  std::uint64_t buffer_size = 4096;  // vectors per block (DEVICE_BUFFER_SIZE)
  int unroll = 1;
  bool single_kernel = true;
  int ranks_on_device = 1;
  stream::StreamValidationRule validation;  // --stream.validate-epsilon: the CPU backend's rule

  std::size_t element_bytes() const { return stream::element_bytes(type); }
  // replications x vector-count x buffer-size: the arrays are whole blocks of it.
  std::uint64_t length_unit() const {
    return static_cast<std::uint64_t>(replications) * static_cast<std::uint64_t>(vector_count) * buffer_size;
  }
  std::uint64_t elements_per_replication() const { return elements / static_cast<std::uint64_t>(replications); }
  // blocks (work-groups) per replication and kernel launch
  std::uint64_t blocks_per_replication() const {
    return elements_per_replication() / (static_cast<std::uint64_t>(vector_count) * buffer_size);
  }
  // three arrays on the device, and their host copies
  std::uint64_t device_bytes() const { return 3 * elements * element_bytes(); }
  std::uint64_t local_buffer_bytes() const { return buffer_size * static_cast<std::uint64_t>(vector_count) * element_bytes(); }
};

// The length rule alone: throws UsageError "<flag> N: not a multiple of
// ... ; nearest valid lengths: A and B" unless n is a positive multiple of
// unit (`flag`: how --stream.elements was typed).
void check_stream_length(std::uint64_t n, const OclStreamParams& shape, const std::string& flag);

// Checks the STREAM options (--stream.* shared with every backend, read
// once by STREAM's plan; --ocl.* kernel shape) for one element type against
// the chosen device (memory, largest buffer, local memory, fp64); throws
// UsageError.
OclStreamParams plan_ocl_stream(const stream::StreamOptions& options, const OclStreamShapeOptions& shape,
                                const OclDeviceInfo& device, int ranks_on_device,
                                const stream::StreamCommonParams& common, stream::StreamType type);
// The same from a Config (read once) for the first type of --stream.type.
OclStreamParams plan_ocl_stream(const Config& config, const OclDeviceInfo& device, int ranks_on_device, bool quick);

// "double, 16777216 elements/array, 1 replication x vector 1 x buffer 4096, combined kernel, 10 repetitions"
std::string describe_ocl_stream(const OclStreamParams& params);

}  // namespace bws::ocl
