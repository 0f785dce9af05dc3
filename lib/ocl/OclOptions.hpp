#pragma once
// The OpenCL device library's options: the device choice (--ocl.platform,
// --ocl.device, --ocl.list; read by every benchmark that runs on the ocl
// backend and by b_eff's device path) and the shape of device STREAM's
// kernels (declared by the ocl STREAM backend). Keys without the leading
// "--" and their defaults. The old --ocl.tests/elements/type/ntimes are
// aliases (lib/backends/LegacyOclAliases.hpp).
#include <boost/program_options/options_description.hpp>

namespace bws::ocl {

inline constexpr const char* kPlatformOption = "ocl.platform";
inline constexpr const char* kDeviceOption = "ocl.device";
inline constexpr const char* kListOption = "ocl.list";
inline constexpr const char* kBufferSizeOption = "ocl.buffer-size";
inline constexpr const char* kVectorCountOption = "ocl.vector-count";
inline constexpr const char* kUnrollOption = "ocl.unroll";
inline constexpr const char* kReplicationsOption = "ocl.replications";
inline constexpr const char* kSingleKernelOption = "ocl.single-kernel";

inline constexpr const char* kPlatformDefault = "auto";
inline constexpr const char* kDeviceDefault = "auto";
inline constexpr const char* kListDefault = "false";
inline constexpr const char* kBufferSizeDefault = "4096";
inline constexpr const char* kVectorCountDefault = "1";
inline constexpr const char* kUnrollDefault = "1";
inline constexpr const char* kReplicationsDefault = "1";
inline constexpr const char* kSingleKernelDefault = "true";

// --ocl.platform, --ocl.device, --ocl.list.
void add_ocl_device_options(boost::program_options::options_description& desc);
// --ocl.buffer-size, vector-count, unroll, replications, single-kernel.
void add_ocl_stream_options(boost::program_options::options_description& desc);

}  // namespace bws::ocl
