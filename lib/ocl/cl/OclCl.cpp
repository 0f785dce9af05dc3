#include "ocl/cl/OclCl.hpp"

#include "core/Errors.hpp"

namespace bws::ocl {
namespace {

std::string clean(std::string s) {
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ' || s.back() == '\n')) s.pop_back();
  return s;
}

std::string type_name(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return "GPU";
  if (type & CL_DEVICE_TYPE_CPU) return "CPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return "ACCELERATOR";
  return "OTHER";
}

std::vector<cl::Platform> cl_platforms() {
  std::vector<cl::Platform> platforms;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error& e) {
    if (e.err() == -1001 /*CL_PLATFORM_NOT_FOUND_KHR: the ICD loader found none*/) return {};
    throw_cl_failure(e, "listing the OpenCL platforms");
  }
  return platforms;
}

std::vector<cl::Device> cl_devices(const cl::Platform& platform) {
  std::vector<cl::Device> devices;
  try {
    platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
  } catch (const cl::Error& e) {
    if (e.err() == CL_DEVICE_NOT_FOUND) return {};
    throw_cl_failure(e, "listing the devices of a platform");
  }
  return devices;
}

}  // namespace

void throw_cl_failure(const cl::Error& error, const std::string& doing) {
  throw RuntimeFailure(std::string(error.what() ? error.what() : "OpenCL call") + ": " + cl_error_name(error.err()) +
                       " (" + std::to_string(error.err()) + ") while " + doing);
}

cl::Program build_program(const cl::Context& context, const cl::Device& device, const std::string& source,
                          const std::string& what) {
  cl::Program program = cl_checked("creating the " + what + " program", [&] { return cl::Program(context, source); });
  try {
    program.build(std::vector<cl::Device>{device}, "-cl-std=CL1.2");
  } catch (const cl::Error& e) {
    std::string log;
    try {
      log = clean(program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device));
    } catch (const cl::Error&) {
      log = "(no build log)";
    }
    throw RuntimeFailure(std::string(e.what() ? e.what() : "clBuildProgram") + ": " + cl_error_name(e.err()) + " (" +
                         std::to_string(e.err()) + ") building the " + what + " kernels; build log:\n" + log);
  }
  return program;
}

OclDeviceInfo describe_device(const cl::Device& d, int platform_index, int device_index,
                              const std::string& platform_name) {
  return cl_checked("reading a device's properties (clGetDeviceInfo)", [&] {
    OclDeviceInfo info;
    info.platform_index = platform_index;
    info.device_index = device_index;
    info.platform_name = platform_name;
    info.name = clean(d.getInfo<CL_DEVICE_NAME>());
    info.vendor = clean(d.getInfo<CL_DEVICE_VENDOR>());
    info.version = clean(d.getInfo<CL_DEVICE_VERSION>());
    info.driver_version = clean(d.getInfo<CL_DRIVER_VERSION>());
    info.type = type_name(d.getInfo<CL_DEVICE_TYPE>());
    info.compute_units = static_cast<int>(d.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>());
    info.max_clock_mhz = static_cast<int>(d.getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>());
    info.global_memory_bytes = d.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
    info.max_allocation_bytes = d.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
    info.global_cache_bytes = d.getInfo<CL_DEVICE_GLOBAL_MEM_CACHE_SIZE>();
    info.cache_line_bytes = d.getInfo<CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE>();
    info.local_memory_bytes = d.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
    info.max_work_group_size = d.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
    const std::string extensions = d.getInfo<CL_DEVICE_EXTENSIONS>();
    info.fp64 = extensions.find("cl_khr_fp64") != std::string::npos || d.getInfo<CL_DEVICE_DOUBLE_FP_CONFIG>() != 0;
    return info;
  });
}

bool ocl_compiled_in() { return true; }

std::vector<OclPlatformInfo> ocl_platforms(const std::string&) {
  std::vector<OclPlatformInfo> out;
  const std::vector<cl::Platform> platforms = cl_platforms();
  for (std::size_t p = 0; p < platforms.size(); ++p) {
    OclPlatformInfo info = cl_checked("reading a platform's properties (clGetPlatformInfo)", [&] {
      OclPlatformInfo i;
      i.index = static_cast<int>(p);
      i.name = clean(platforms[p].getInfo<CL_PLATFORM_NAME>());
      i.vendor = clean(platforms[p].getInfo<CL_PLATFORM_VENDOR>());
      i.version = clean(platforms[p].getInfo<CL_PLATFORM_VERSION>());
      return i;
    });
    const std::vector<cl::Device> devices = cl_devices(platforms[p]);
    for (std::size_t d = 0; d < devices.size(); ++d)
      info.devices.push_back(describe_device(devices[d], static_cast<int>(p), static_cast<int>(d), info.name));
    out.push_back(std::move(info));
  }
  return out;
}

cl::Device find_cl_device(const OclDeviceInfo& info) {
  const std::vector<cl::Platform> platforms = cl_platforms();
  if (info.platform_index < 0 || static_cast<std::size_t>(info.platform_index) >= platforms.size())
    throw RuntimeFailure("OpenCL platform " + std::to_string(info.platform_index) + " is gone");
  const std::vector<cl::Device> devices = cl_devices(platforms[static_cast<std::size_t>(info.platform_index)]);
  if (info.device_index < 0 || static_cast<std::size_t>(info.device_index) >= devices.size())
    throw RuntimeFailure("OpenCL device " + std::to_string(info.device_index) + " of platform " +
                         std::to_string(info.platform_index) + " is gone");
  return devices[static_cast<std::size_t>(info.device_index)];
}

OclClDevice::OclClDevice(const OclDeviceInfo& info) : info_(info), device_(find_cl_device(info)) {
  context_ = cl_checked("creating a context on " + info.label(), [&] { return cl::Context(device_); });
}

cl::CommandQueue OclClDevice::make_queue() const {
  return cl_checked("creating a command queue on " + info_.label(), [&] { return cl::CommandQueue(context_, device_); });
}

std::shared_ptr<OclDevice> open_ocl_device(const OclDeviceInfo& info) { return std::make_shared<OclClDevice>(info); }

}  // namespace bws::ocl
