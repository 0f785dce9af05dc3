#pragma once
// The backend list: every place a benchmark can run, one line each in
// Backends.cpp. A backend is a device library (lib/ocl for OpenCL devices;
// the CPU's own implementations live in each benchmark's folder) that
// implements the benchmarks' device interfaces: STREAM's StreamBackend,
// BS's BsBackend and b_eff's DeviceBuffersProvider. Adding CUDA or SYCL is
// one new folder and one line here; no benchmark's planning, results or
// report changes (they take their backends by name from here).
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/ProgramOptionsFwd.hpp"

#include "bs/BsDevice.hpp"
#include "core/Config.hpp"
#include "core/DeviceBuffers.hpp"
#include "stream/StreamDevice.hpp"

namespace bws::backends {

struct Backend {
  std::string name;  // "cpu", "ocl": the value of --stream.backend, --bs.backend and the backend column
  std::string description;
  std::shared_ptr<const stream::StreamBackend> stream;          // nullptr: STREAM does not run on it
  std::shared_ptr<const bs::BsBackend> bs;                      // nullptr: BS does not run on it
  std::shared_ptr<const DeviceBuffersProvider> beff_buffers;    // b_eff's --beff.path device; nullptr: none
  // The device library's own options (the device choice); nullptr: none.
  std::function<void(boost::program_options::options_description&)> add_options = nullptr;
  // A listing its options ask for instead of a run (--ocl.list); nullptr: none.
  std::function<std::optional<std::string>(const Config&)> listing = nullptr;
};

const std::vector<Backend>& backend_list();

// The implementations of each benchmark's device interface, by backend name.
stream::StreamBackends stream_backends();
bs::BsBackends bs_backends();
// What b_eff's --beff.path device opens: the first backend that has device
// buffers (nullptr when none: the path is then refused as a usage error).
std::shared_ptr<const DeviceBuffersProvider> beff_device_buffers();

// Every backend's own options, a group per backend that has some.
void add_backend_options(boost::program_options::options_description& all);
// The first listing any backend's options ask for.
std::optional<std::string> requested_backend_listing(const Config& config);

}  // namespace bws::backends
