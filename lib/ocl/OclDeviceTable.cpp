#include "ocl/OclDeviceTable.hpp"

#include "core/ResultColumns.hpp"
#include "ocl/OclRateCeiling.hpp"
#include "ocl/OclRuntime.hpp"

namespace bws::ocl {

Table make_ocl_devices_table() {
  return Table(kDevicesPath,
               {int_column("rank"), text_column("host", kHostWidth), int_column("local_rank"),
                text_column("benchmark", 16),  // "stream", "bs": what measured on it
                int_column("platform_index"), text_column("platform", 128), int_column("device_index"),
                text_column("device", 128), text_column("vendor", 64), text_column("type", 16),
                text_column("version", 128), text_column("driver_version", 64), int_column("compute_units"),
                int_column("max_clock_mhz"), int_column("global_memory_bytes", "B"),
                int_column("max_allocation_bytes", "B"), int_column("global_cache_bytes", "B"),
                int_column("cache_line_bytes", "B"), int_column("local_memory_bytes", "B"),
                int_column("max_work_group_size"), int_column("fp64"), int_column("candidates"),
                int_column("ranks_on_device"), real_column("ceiling", "B/s")});
}

void add_ocl_device_row(Table& devices, const OclRankDevice& rank, const std::string& benchmark) {
  const OclChoice& choice = rank.choice;
  const OclDeviceInfo& d = choice.device;
  devices.add_row({{"rank", rank.rank},
                   {"host", rank.host},
                   {"local_rank", rank.local_rank},
                   {"benchmark", benchmark},
                   {"platform_index", d.platform_index},
                   {"platform", d.platform_name},
                   {"device_index", d.device_index},
                   {"device", d.name},
                   {"vendor", d.vendor},
                   {"type", d.type},
                   {"version", d.version},
                   {"driver_version", d.driver_version},
                   {"compute_units", d.compute_units},
                   {"max_clock_mhz", d.max_clock_mhz},
                   {"global_memory_bytes", d.global_memory_bytes},
                   {"max_allocation_bytes", d.max_allocation_bytes},
                   {"global_cache_bytes", d.global_cache_bytes},
                   {"cache_line_bytes", d.cache_line_bytes},
                   {"local_memory_bytes", d.local_memory_bytes},
                   {"max_work_group_size", d.max_work_group_size},
                   {"fp64", d.fp64},
                   {"candidates", choice.candidates},
                   {"ranks_on_device", choice.ranks_on_device},
                   {"ceiling", device_rate_ceiling_Bps(d)}});
}

OclRankDevice choose_rank_device(const Config& config, const NodeContext& node, const std::string& asked_by) {
  return {node.rank, node.local_rank, node.host,
          choose_device(ocl_platforms(asked_by), config, node.local_rank, node.ranks_on_node)};
}

std::vector<Table> ocl_devices_tables(const OclRankDevice& rank, const std::string& benchmark) {
  Table devices = make_ocl_devices_table();
  add_ocl_device_row(devices, rank, benchmark);
  return {std::move(devices)};
}

}  // namespace bws::ocl
