#include "ocl/OclOptions.hpp"

#include <algorithm>
#include <cctype>

#include "core/OptionText.hpp"

namespace bws::ocl {
namespace {

OclPick read_pick(const OptionValue& v) {
  OclPick pick;
  pick.text = v.text;
  pick.is_auto = lower_text(v.text) == "auto";
  if (pick.is_auto) return pick;
  const bool digits = !v.text.empty() && v.text.size() <= 6 &&
                      std::all_of(v.text.begin(), v.text.end(), [](unsigned char c) { return std::isdigit(c); });
  std::uint64_t index = 0;
  if (digits && read_whole_number(v.text, index) == NumberRead::Ok) {
    pick.index = index;
  } else {
    pick.name = v.text;
  }
  return pick;
}

}  // namespace

const OptionSchema<OclDeviceOptions>& ocl_device_schema() {
  static const OptionSchema<OclDeviceOptions> schema({
      bind_option(text_option("ocl.platform", "auto",
                              "OpenCL: platform, an index (0, 1, ...) or a case-insensitive substring of its name "
                              "(pocl, nvidia); auto = the first platform that has a device; --ocl.list shows them"),
                  &OclDeviceOptions::platform, read_pick),
      bind_option(text_option("ocl.device", "auto",
                              "OpenCL: device of that platform, an index or a name substring; auto = all its devices. "
                              "Among the matching devices each rank takes (its rank on the node) % (their count); the "
                              "device of --stream.backend ocl, --bs.backend ocl and --beff.path device"),
                  &OclDeviceOptions::device, read_pick),
      bind_option(flag_option("ocl.list", false, "OpenCL: print the platforms and devices with their indices and exit"),
                  &OclDeviceOptions::list),
  });
  return schema;
}

const OptionSchema<OclStreamShapeOptions>& ocl_stream_schema() {
  static const OptionSchema<OclStreamShapeOptions> schema({
      bind_option(whole_option("ocl.buffer-elements", "4096", 1, kMaxBufferSize, "",
                               "OpenCL STREAM: elements (of the vector type) of the kernel's local memory buffer, one "
                               "block of the arrays per work-group (HPCC_FPGA STREAM's DEVICE_BUFFER_SIZE)")
                      .note("and within the device's local memory")
                      .alias("ocl.buffer-size"),
                  &OclStreamShapeOptions::buffer_elements),
      bind_option(whole_option("ocl.vector-count", "1", 1, 16, "",
                               "OpenCL STREAM: OpenCL vector width of the kernels' type (HPCC_FPGA STREAM's VECTOR_COUNT)")
                      .note("(1, 2, 4, 8, 16)"),
                  &OclStreamShapeOptions::vector_count),
      bind_option(whole_option("ocl.unroll", "1", 1, kMaxUnroll, "",
                               "OpenCL STREAM: unroll factor of the kernels' global memory loops (HPCC_FPGA STREAM's "
                               "GLOBAL_MEM_UNROLL, '#pragma unroll')"),
                  &OclStreamShapeOptions::unroll),
      bind_option(whole_option("ocl.replications", "1", 1, kMaxReplications, "",
                               "OpenCL STREAM: kernel replications, each on its own queue and its own part of the "
                               "arrays, released together by one user event (HPCC_FPGA STREAM's NUM_REPLICATIONS)"),
                  &OclStreamShapeOptions::replications),
      bind_option(flag_option("ocl.single-kernel", true,
                              "OpenCL STREAM: on = one combined kernel for all four operations (scalar, add flag, "
                              "local buffer), as HPCC_FPGA STREAM; off = a separate kernel per operation"),
                  &OclStreamShapeOptions::single_kernel),
  });
  return schema;
}

void add_ocl_device_options(boost::program_options::options_description& desc) { ocl_device_schema().add_to(desc); }
void add_ocl_stream_options(boost::program_options::options_description& desc) { ocl_stream_schema().add_to(desc); }

}  // namespace bws::ocl
