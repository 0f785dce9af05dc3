#pragma once
// What bwsurvey needs to know of an OpenCL device, as plain data: filled by
// the OpenCL side (cl/OclEnumerate.cpp), used by planning, the rate ceiling,
// the tables and the listing without any OpenCL header.
#include <cstdint>
#include <string>
#include <vector>

namespace bws::ocl {

// The backend column of the rows measured on an OpenCL device.
inline constexpr const char* kBackendOcl = "ocl";

struct OclDeviceInfo {
  int platform_index = 0;
  int device_index = 0;  // within its platform
  std::string platform_name;
  std::string name;
  std::string vendor;
  std::string version;         // CL_DEVICE_VERSION
  std::string driver_version;  // CL_DRIVER_VERSION
  std::string type;            // "CPU", "GPU", "ACCELERATOR", "OTHER"
  int compute_units = 0;
  int max_clock_mhz = 0;
  std::uint64_t global_memory_bytes = 0;
  std::uint64_t max_allocation_bytes = 0;
  std::uint64_t global_cache_bytes = 0;  // CL_DEVICE_GLOBAL_MEM_CACHE_SIZE (0: none or unknown)
  std::uint64_t cache_line_bytes = 0;
  std::uint64_t local_memory_bytes = 0;
  std::uint64_t max_work_group_size = 0;
  bool fp64 = false;  // cl_khr_fp64 (or double precision reported)

  // "pthread-skylake-avx512 (Portable Computing Language)"
  std::string label() const { return name + " (" + platform_name + ")"; }
};

struct OclPlatformInfo {
  int index = 0;
  std::string name;
  std::string vendor;
  std::string version;
  std::vector<OclDeviceInfo> devices;
};

}  // namespace bws::ocl
