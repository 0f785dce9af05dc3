// The OpenCL side of lib/ocl in a build without OpenCL: everything that
// would touch a device is a usage error of one line naming the option that
// asked for it, and b_eff gets no device provider (so --beff.path device is
// refused the same way).
#include "core/Errors.hpp"
#include "ocl/OclRuntime.hpp"

namespace bws::ocl {
namespace {

[[noreturn]] void no_opencl(const std::string& option) {
  throw UsageError(option + ": this build of bwsurvey has no OpenCL (CMake found no ICD loader or no OpenCL-CLHPP "
                            "headers; install ocl-icd-opencl-dev opencl-clhpp-headers pocl-opencl-icd and rebuild)");
}

}  // namespace

bool ocl_compiled_in() { return false; }

std::vector<OclPlatformInfo> ocl_platforms(const std::string& option) { no_opencl(option); }

std::shared_ptr<OclDevice> open_ocl_device(const OclDeviceInfo&) { no_opencl("--ocl.device"); }

std::unique_ptr<stream::StreamDeviceArrays> make_ocl_stream_arrays(std::shared_ptr<OclDevice>, const OclStreamParams&) {
  no_opencl("--stream.backend ocl");
}

std::unique_ptr<OclBsRunner> make_ocl_bs_runner(std::shared_ptr<OclDevice>, std::uint64_t, int) {
  no_opencl("--bs.backend ocl");
}

std::shared_ptr<const DeviceBuffersProvider> ocl_device_buffers_provider() { return nullptr; }

}  // namespace bws::ocl
