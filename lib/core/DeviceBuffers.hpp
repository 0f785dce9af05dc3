#pragma once
// Message buffers in an accelerator's memory, for a benchmark whose data
// must pass through device memory (b_eff's PCIe path, HPCC_FPGA's "PCIe"
// variant: device -> host -> MPI -> host -> device). The benchmark sees only
// this interface; lib/ocl implements it with OpenCL when the build has
// OpenCL, and the registry hands the provider over (or none), so a
// benchmark never depends on OpenCL itself.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/Config.hpp"

namespace bws {

// A rank's buffers on its device, all of the same capacity. Every call
// returns when the copy is complete (blocking), as the PCIe path times it;
// a failing device call throws RuntimeFailure naming the call and its code.
class DeviceBuffers {
 public:
  virtual ~DeviceBuffers() = default;
  // "pthread-skylake-avx512 (Portable Computing Language)": for tables.
  virtual std::string device_name() const = 0;
  virtual std::uint64_t capacity_bytes() const = 0;
  // device buffer `index` -> host
  virtual void read(int index, std::byte* host, std::uint64_t bytes) = 0;
  // host -> device buffer `index`
  virtual void write(int index, const std::byte* host, std::uint64_t bytes) = 0;
};

struct DeviceBuffersRequest {
  int buffers = 0;
  std::uint64_t bytes_each = 0;
  int local_rank = 0;     // picks the device: local rank % devices
  int ranks_on_node = 1;  // ranks that may share the device (memory budget)
};

class DeviceBuffersProvider {
 public:
  virtual ~DeviceBuffersProvider() = default;
  // Checks the device options in `config` against the devices present and
  // `request` against the chosen device's memory; throws UsageError naming
  // the option. Returns the device's name. Called at planning time, before
  // anything is allocated.
  virtual std::string check(const Config& config, const DeviceBuffersRequest& request) const = 0;
  // Opens the chosen device and allocates the buffers; throws RuntimeFailure.
  virtual std::unique_ptr<DeviceBuffers> open(const Config& config, const DeviceBuffersRequest& request) const = 0;
};

}  // namespace bws
