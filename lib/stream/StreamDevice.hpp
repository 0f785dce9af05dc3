#pragma once
// STREAM's device interface (BabelStream's Stream<T> shape): what a backend
// must do so that STREAM's one driver (StreamBenchmark.cpp: repetitions,
// timing order, validation, rows, node summary, report) runs on it. The CPU
// backend (StreamCpuDevice.cpp) runs on the rank's pinned Team; others live
// in their device library (lib/ocl) and reach STREAM through the backend
// list (lib/backends), so lib/stream never depends on them.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/ProgramOptionsFwd.hpp"

#include "core/Benchmark.hpp"
#include "core/Config.hpp"
#include "core/RunContext.hpp"
#include "stream/StreamKernelTable.hpp"
#include "stream/StreamOptions.hpp"
#include "stream/StreamTypes.hpp"
#include "stream/StreamValidation.hpp"

namespace bws::topo {
class Team;
}

namespace bws::stream {

// What the driver asks every backend for, parsed once (--stream.type,
// --stream.reps, --stream.validate-epsilon); --stream.elements is
// resolved by each backend against its own device ('auto' per device).
struct StreamCommonParams {
  std::vector<StreamType> types;
  int reps = 20;  // repetitions, the first dropped as warm-up: the run's one count (fitting lowers it here)
  StreamValidationRule validation;
};

// The device one rank measures on, as the rows name it.
struct StreamDeviceInfo {
  std::string backend;      // "cpu", "ocl": the backend column
  std::string device;       // "cpu" for the Team; a device's "name (platform)"
  int threads = 1;          // the Team's threads; a device's compute units
  double ceiling_Bps = 0;   // no real rate is above it (a faster run did not do its work)
  bool transfers = false;   // PCI write/read timed around the kernels (memory apart from the host)
};

// One element type's arrays on the device, initialised (a=1, b=2, c=0, then
// a=2a) when made.
class StreamDeviceArrays {
 public:
  virtual ~StreamDeviceArrays() = default;
  // "normal"/"nontemporal" (the CPU's stores); "" where there is no choice.
  virtual std::string stores() const = 0;
  // The kernels' shape where a backend has one ("combined r1 v1 b4096 u1"); "".
  virtual std::string variant() const = 0;
  // One timed call of `op`, the node's ranks meeting (node_sync) first;
  // seconds as the device sees the work start and end.
  virtual double run_timed(StreamOp op, NodeSync& node_sync) = 0;
  // The arrays (read back where the device has its own memory) judged after
  // reps repetitions (stream::judge_stream_run).
  virtual StreamValidation validate(int reps, const StreamValidationRule& rule) = 0;
};

// One rank's STREAM on one backend, planned.
class StreamDeviceRun {
 public:
  virtual ~StreamDeviceRun() = default;
  virtual std::string describe() const = 0;        // the device and what runs on it
  virtual std::uint64_t memory_bytes() const = 0;  // host bytes this rank allocates
  virtual std::uint64_t elements(StreamType type) const = 0;  // per array, resolved for this device
  virtual StreamDeviceInfo info(const topo::Team& team) const = 0;
  virtual void prepare(topo::Team& team) = 0;      // allocate (nothing timed)
  // The arrays of `type`, initialised; valid until the next call or release().
  virtual StreamDeviceArrays& arrays(topo::Team& team, StreamType type) = 0;
  virtual void release() = 0;
  // Tables of the device itself (ocl/devices), rows of this rank; default none.
  virtual std::vector<Table> device_tables(const std::string& /*benchmark*/) const { return {}; }
};

// A backend of STREAM: its own options (kernel shapes) and its planning.
class StreamBackend {
 public:
  virtual ~StreamBackend() = default;
  virtual void add_options(boost::program_options::options_description& /*desc*/) const {}
  // `options`: STREAM's, read once by the driver; `config` holds the
  // backend's own options. Throws UsageError naming the option (a device
  // that cannot hold the arrays, a length its kernels cannot run).
  virtual std::unique_ptr<StreamDeviceRun> plan(const Config& config, const StreamOptions& options,
                                                const NodeContext& node, const StreamCommonParams& common) const = 0;
};

// The backends STREAM may run on, by name ("cpu", "ocl"), from the backend list.
using StreamBackends = std::map<std::string, std::shared_ptr<const StreamBackend>>;

// The CPU backend (this folder): the pinned Team, NUMA-local arrays.
std::shared_ptr<const StreamBackend> cpu_stream_backend();

}  // namespace bws::stream
