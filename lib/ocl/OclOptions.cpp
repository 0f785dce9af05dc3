#include "ocl/OclOptions.hpp"

#include "core/Config.hpp"

namespace bws::ocl {

void add_ocl_device_options(boost::program_options::options_description& desc) {
  add_text_option(desc, kPlatformOption, kPlatformDefault,
                  "OpenCL: platform, an index (0, 1, ...) or a case-insensitive substring of its name (pocl, "
                  "nvidia); auto = the first platform that has a device; --ocl.list shows them");
  add_text_option(desc, kDeviceOption, kDeviceDefault,
                  "OpenCL: device of that platform, an index or a name substring; auto = all its devices. Among "
                  "the matching devices each rank takes (its rank on the node) % (their count); the device of "
                  "--stream.backend ocl, --bs.backend ocl and --beff.path device");
  add_flag_text_option(desc, kListOption, kListDefault,
                       "OpenCL: print the platforms and devices with their indices and exit (--ocl.list alone, or "
                       "--ocl.list=true|false)");
}

void add_ocl_stream_options(boost::program_options::options_description& desc) {
  add_text_option(desc, kBufferSizeOption, kBufferSizeDefault,
                  "OpenCL STREAM: elements (of the vector type) of the kernel's local memory buffer, one block "
                  "of the arrays per work-group (seed 000's DEVICE_BUFFER_SIZE); allowed 1..2^20 and within the "
                  "device's local memory");
  add_text_option(desc, kVectorCountOption, kVectorCountDefault,
                  "OpenCL STREAM: OpenCL vector width of the kernels' type (seed 000's VECTOR_COUNT); allowed "
                  "1, 2, 4, 8, 16");
  add_text_option(desc, kUnrollOption, kUnrollDefault,
                  "OpenCL STREAM: unroll factor of the kernels' global memory loops (seed 000's "
                  "GLOBAL_MEM_UNROLL, '#pragma unroll'); allowed 1..64");
  add_text_option(desc, kReplicationsOption, kReplicationsDefault,
                  "OpenCL STREAM: kernel replications, each on its own queue and its own part of the arrays, "
                  "released together by one user event (seed 000's NUM_REPLICATIONS); allowed 1..64");
  add_text_option(desc, kSingleKernelOption, kSingleKernelDefault,
                  "OpenCL STREAM: true = one combined kernel for all four operations (scalar, add flag, local "
                  "buffer), as seed 000; false = a separate kernel per operation");
}

}  // namespace bws::ocl
