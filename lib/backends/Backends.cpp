#include "backends/Backends.hpp"

#include <boost/program_options/options_description.hpp>

#include "ocl/OclBsBackend.hpp"
#include "ocl/OclOptions.hpp"
#include "ocl/OclSelection.hpp"
#include "ocl/OclStreamBackend.hpp"
#include "ocl/OclRuntime.hpp"

namespace bws::backends {

const std::vector<Backend>& backend_list() {
  static const std::vector<Backend> list = {
      {"cpu", "the rank's pinned threads", stream::cpu_stream_backend(), bs::cpu_bs_backend(), nullptr},
      {"ocl", "an OpenCL device per rank (PoCL, GPUs)", ocl::ocl_stream_backend(), ocl::ocl_bs_backend(),
       ocl::ocl_device_buffers_provider(), ocl::add_ocl_device_options, ocl::requested_device_listing},
  };
  return list;
}

stream::StreamBackends stream_backends() {
  stream::StreamBackends out;
  for (const Backend& b : backend_list())
    if (b.stream) out[b.name] = b.stream;
  return out;
}

bs::BsBackends bs_backends() {
  bs::BsBackends out;
  for (const Backend& b : backend_list())
    if (b.bs) out[b.name] = b.bs;
  return out;
}

std::shared_ptr<const DeviceBuffersProvider> beff_device_buffers() {
  for (const Backend& b : backend_list())
    if (b.beff_buffers) return b.beff_buffers;
  return nullptr;
}

void add_backend_options(boost::program_options::options_description& all) {
  for (const Backend& b : backend_list()) {
    if (!b.add_options) continue;
    boost::program_options::options_description group("backend " + b.name + ": " + b.description);
    b.add_options(group);
    all.add(group);
  }
}

std::optional<std::string> requested_backend_listing(const Config& config) {
  for (const Backend& b : backend_list())
    if (b.listing)
      if (auto text = b.listing(config)) return text;
  return std::nullopt;
}

}  // namespace bws::backends
