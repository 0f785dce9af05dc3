#pragma once
// OpenCL-CLHPP as bwsurvey uses it: C++ exceptions on (every call is
// checked by the bindings), OpenCL 1.2 as target and minimum (what PoCL,
// NVIDIA, AMD and Intel all provide), and the translation of a failed call
// into a RuntimeFailure that names the call and its code.
#define CL_HPP_ENABLE_EXCEPTIONS
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_TARGET_OPENCL_VERSION 120
#if __has_include(<CL/opencl.hpp>)
#include <CL/opencl.hpp>
#else
#include <CL/cl2.hpp>
#endif

#include <string>
#include <vector>

#include "ocl/OclDeviceInfo.hpp"
#include "ocl/OclRuntime.hpp"

namespace bws::ocl {

// "clCreateBuffer: CL_INVALID_BUFFER_SIZE (-61)", with what it was doing.
[[noreturn]] void throw_cl_failure(const cl::Error& error, const std::string& doing);

// Runs f(); a cl::Error becomes a RuntimeFailure naming the call, the code
// and `doing`.
template <class F>
auto cl_checked(const std::string& doing, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const cl::Error& e) {
    throw_cl_failure(e, doing);
  }
}

// Builds `source` for the device; a failed build throws a RuntimeFailure
// with the compiler's log.
cl::Program build_program(const cl::Context& context, const cl::Device& device, const std::string& source,
                          const std::string& what);

// The figures of a device (all CLHPP getInfo calls, checked).
OclDeviceInfo describe_device(const cl::Device& device, int platform_index, int device_index,
                              const std::string& platform_name);

// The opened device of open_ocl_device.
class OclClDevice final : public OclDevice {
 public:
  explicit OclClDevice(const OclDeviceInfo& info);
  const OclDeviceInfo& info() const override { return info_; }
  const cl::Context& context() const { return context_; }
  const cl::Device& device() const { return device_; }
  // A new in-order queue on the device.
  cl::CommandQueue make_queue() const;

 private:
  OclDeviceInfo info_;
  cl::Device device_;
  cl::Context context_;
};

// The enumerated devices as CLHPP objects, in ocl_platforms' order.
cl::Device find_cl_device(const OclDeviceInfo& info);

}  // namespace bws::ocl
