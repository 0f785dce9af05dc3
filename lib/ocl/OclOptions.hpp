#pragma once
// The OpenCL device library's options, declared once (core/OptionSchema.hpp):
// the device choice (--ocl.platform, --ocl.device, --ocl.list; read by every
// benchmark that runs on the ocl backend and by b_eff's device path) and the
// shape of device STREAM's kernels (declared by the ocl STREAM backend).
// What depends on the device (the buffer within its local memory) stays
// with plan_ocl_stream. The old --ocl.tests/elements/type/ntimes are aliases
// (lib/backends/LegacyOclAliases.hpp); --ocl.buffer-size is the old name of
// --ocl.buffer-elements. Every name lives in the declaration; a message
// names a field: o.flag(&OclStreamShapeOptions::vector_count).
#include <cstdint>
#include <optional>
#include <string>

#include "core/ProgramOptionsFwd.hpp"

#include "core/Config.hpp"
#include "core/OptionSchema.hpp"

namespace bws::ocl {

inline constexpr std::uint64_t kMaxBufferSize = std::uint64_t{1} << 20;
inline constexpr int kMaxReplications = 64;
inline constexpr int kMaxUnroll = 64;

// --ocl.platform or --ocl.device: auto, an index, or a case-insensitive
// name substring; whether it exists is read against the enumerated
// platforms (OclSelection).
struct OclPick {
  bool is_auto = true;
  std::optional<std::uint64_t> index;  // digits (at most 6): an index
  std::string name;                    // else a name substring
  std::string text;                    // as typed, for messages
};

struct OclDeviceOptions : TypedOptions {
  OclPick platform;
  OclPick device;
  bool list = false;
};

struct OclStreamShapeOptions : TypedOptions {
  std::uint64_t buffer_elements = 4096;  // vectors per block; within the device's local memory (checked in plan)
  int vector_count = 1;                  // a power of two (checked in plan)
  int unroll = 1;
  int replications = 1;
  bool single_kernel = true;
};

const OptionSchema<OclDeviceOptions>& ocl_device_schema();
const OptionSchema<OclStreamShapeOptions>& ocl_stream_schema();

// --ocl.platform, --ocl.device, --ocl.list.
void add_ocl_device_options(boost::program_options::options_description& desc);
// --ocl.buffer-elements, vector-count, unroll, replications, single-kernel.
void add_ocl_stream_options(boost::program_options::options_description& desc);

}  // namespace bws::ocl
