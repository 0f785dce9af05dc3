#pragma once
// BS1-BS7's device interface: what a backend must do so that BS's one
// driver (BsBenchmark.cpp: the sweep, the T0/Wmax fits, validation, rows,
// report) runs on it. The CPU backend (BsCpuDevice.cpp) runs on the rank's
// pinned Team; others live in their device library (lib/ocl) and reach BS
// through the backend list (lib/backends): lib/bs never depends on them.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/ProgramOptionsFwd.hpp"

#include "bs/BsMesh.hpp"
#include "bs/BsPlan.hpp"
#include "bs/BsResults.hpp"
#include "core/Benchmark.hpp"
#include "core/RunContext.hpp"

namespace bws::bs {

struct BsDeviceInfo {
  std::string backend = kBackendCpu;  // the backend column
  int threads = 1;                    // the Team's threads; a device's compute units
  double ceiling_Bps = 0;             // > 0: a point faster than this did not do its work
};

// One rank's BS1-BS7 on one backend, planned (sizes against the device's
// cache and memory: 'auto' per device).
class BsDeviceRun {
 public:
  virtual ~BsDeviceRun() = default;
  virtual const BsParams& params() const = 0;
  virtual std::string describe() const = 0;
  virtual std::uint64_t memory_bytes() const = 0;  // host bytes
  virtual BsDeviceInfo info(const topo::Team& team) const = 0;
  virtual void prepare(topo::Team& team) = 0;
  virtual void release() = 0;
  // T0 as this device pays one call of `test` (an empty call of its shape).
  virtual double empty_call_seconds(topo::Team& team, RunContext& context, BsTest test) = 0;
  // One size of BS1-BS5: inputs written, warm-up, `reps` timed runs, one validated run.
  virtual BsPoint vector_point(topo::Team& team, RunContext& context, BsTest test, std::uint64_t entries,
                               int reps) = 0;
  // The mesh of the next mesh_point calls (BS6, BS7), with its CSR.
  virtual void place_mesh(topo::Team& team, const HexMesh& mesh, const GatherCsr& csr) = 0;
  virtual BsPoint mesh_point(topo::Team& team, RunContext& context, BsTest test, int reps) = 0;
  // Tables of the device itself (ocl/devices), rows of this rank; default none.
  virtual std::vector<Table> device_tables(const std::string& /*benchmark*/) const { return {}; }
};

class BsBackend {
 public:
  virtual ~BsBackend() = default;
  virtual void add_options(boost::program_options::options_description& /*desc*/) const {}
  // `options`: BS's options, read once for every backend; `config` holds
  // the backend's own (the device choice). Throws UsageError naming the option.
  virtual std::unique_ptr<BsDeviceRun> plan(const Config& config, const BsOptions& options,
                                            const NodeContext& node) const = 0;
};

using BsBackends = std::map<std::string, std::shared_ptr<const BsBackend>>;

std::shared_ptr<const BsBackend> cpu_bs_backend();

// A point faster than the device can move its bytes (bytes / best time
// above ceiling_Bps, or a time of 0) did not do its work: its validation
// fails (valid = 0, exit 1) and a "bs.rate_ceiling" check row names the rate
// and the ceiling; `what` names the rank and test. Returns whether within.
bool apply_bs_rate_ceiling(BsPoint& point, double ceiling_Bps, Table& checks, const std::string& what);

}  // namespace bws::bs
