#pragma once
// /ocl/devices: one row per rank and benchmark, the device it measured on
// and the figures its plan and its rate ceiling came from.
#include <string>
#include <vector>

#include "core/Benchmark.hpp"

#include "core/Table.hpp"
#include "ocl/OclSelection.hpp"

namespace bws::ocl {

inline constexpr const char* kDevicesPath = "ocl/devices";

// The device one rank of a node uses (OclSelection's rule).
struct OclRankDevice {
  int rank = 0, local_rank = 0;
  std::string host;
  OclChoice choice;
};
// Enumerates the platforms (UsageError naming `asked_by` without OpenCL)
// and chooses this rank's device by --ocl.platform/--ocl.device.
OclRankDevice choose_rank_device(const Config& config, const NodeContext& node, const std::string& asked_by);

Table make_ocl_devices_table();
void add_ocl_device_row(Table& devices, const OclRankDevice& rank, const std::string& benchmark);
// A devices table with this rank's row.
std::vector<Table> ocl_devices_tables(const OclRankDevice& rank, const std::string& benchmark);

}  // namespace bws::ocl
