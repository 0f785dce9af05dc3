#pragma once
// Which device a rank uses: --ocl.platform and --ocl.device name one by
// index or by a case-insensitive substring of its name (never a prompt:
// HPCC_FPGA's interactive device choice blocked batch jobs); among the
// devices that match, a rank takes (its rank on the node) % (their count),
// so the ranks of a node spread over its devices. Pure functions over the
// enumerated platforms, so every rule is tested without a device.
#include <optional>
#include <string>
#include <vector>

#include "core/Config.hpp"
#include "ocl/OclDeviceInfo.hpp"
#include "ocl/OclOptions.hpp"

namespace bws::ocl {

struct OclChoice {
  OclDeviceInfo device;
  int candidates = 1;         // devices that matched --ocl.device
  int ranks_on_device = 1;    // ranks of the node that get this same device
};

// Throws UsageError naming --ocl.platform or --ocl.device and what exists.
OclChoice choose_device(const std::vector<OclPlatformInfo>& platforms, const OclDeviceOptions& options,
                        int local_rank, int ranks_on_node);
// The same from the options in `config` (read once).
OclChoice choose_device(const std::vector<OclPlatformInfo>& platforms, const Config& config, int local_rank,
                        int ranks_on_node);

// The text of --ocl.list: every platform and device with its index and the
// figures planning uses.
std::string device_listing(const std::vector<OclPlatformInfo>& platforms);
// --ocl.list given: the listing of this machine's platforms; else nothing.
std::optional<std::string> requested_device_listing(const Config& config);

}  // namespace bws::ocl
