#pragma once
// The ocl benchmark's options (declared here; parsed by OclPlan and, for
// the device choice, by anything that opens a device: b_eff's PCIe path
// too). Keys without the leading "--" and their defaults.
#include <boost/program_options/options_description.hpp>

namespace bws::ocl {

inline constexpr const char* kPlatformOption = "ocl.platform";
inline constexpr const char* kDeviceOption = "ocl.device";
inline constexpr const char* kListOption = "ocl.list";
inline constexpr const char* kPartsOption = "ocl.tests";
inline constexpr const char* kElementsOption = "ocl.elements";
inline constexpr const char* kTypeOption = "ocl.type";
inline constexpr const char* kNtimesOption = "ocl.ntimes";
inline constexpr const char* kBufferSizeOption = "ocl.buffer-size";
inline constexpr const char* kVectorCountOption = "ocl.vector-count";
inline constexpr const char* kUnrollOption = "ocl.unroll";
inline constexpr const char* kReplicationsOption = "ocl.replications";
inline constexpr const char* kSingleKernelOption = "ocl.single-kernel";

inline constexpr const char* kPlatformDefault = "auto";
inline constexpr const char* kDeviceDefault = "auto";
inline constexpr const char* kListDefault = "false";
inline constexpr const char* kPartsDefault = "stream,bs,beff";
inline constexpr const char* kElementsDefault = "auto";
inline constexpr const char* kTypeDefault = "double";
inline constexpr const char* kNtimesDefault = "10";
inline constexpr const char* kBufferSizeDefault = "4096";
inline constexpr const char* kVectorCountDefault = "1";
inline constexpr const char* kUnrollDefault = "1";
inline constexpr const char* kReplicationsDefault = "1";
inline constexpr const char* kSingleKernelDefault = "true";

void add_ocl_options(boost::program_options::options_description& desc);

}  // namespace bws::ocl
