#include "model/NodeCeiling.hpp"

#include <algorithm>
#include <cmath>

#include "core/ResultColumns.hpp"

namespace bws::model {

double NodeCeiling::for_bytes(std::uint64_t bytes) const {
  const double cores_bound = per_core_Bps * std::max(cores, 1);
  // HMAT figures are for memory; a little headroom for rounding in the firmware's table.
  if (dram_Bps > 0 && bytes > llc_bytes && llc_bytes > 0) return std::min(cores_bound, 1.10 * dram_Bps);
  return cores_bound;
}

Table enforce_node_ceiling(std::vector<Table>& tables, const std::string& host, const NodeCeiling& ceiling) {
  Table checks = make_checks_table();
  for (Table& t : tables) {
    if (!t.has_column("valid")) continue;
    for (const Column& c : t.columns()) {
      if (c.unit != "B/s" || c.type != ColumnType::Float64) continue;
      for (std::size_t r = 0; r < t.rows(); ++r) {
        const double value = t.get_double(r, c.name);
        const std::uint64_t bytes =
            t.has_column("bytes") ? static_cast<std::uint64_t>(std::max<double>(0, t.get_double(r, "bytes"))) : 0;
        const double limit = ceiling.for_bytes(bytes);
        // NaN: not measured. +inf (a time of 0) is above every ceiling.
        if (std::isnan(value) || value <= limit) continue;
        t.set(r, "valid", std::int64_t{0});
        const std::string subject = host + " " + t.path() + " row " + std::to_string(r) + " " + c.name +
                                    ": above what the node can move";
        add_check(checks, {"node.physical_ceiling", subject.substr(0, 160), "validation", value, limit, 0, limit, "B/s",
                           false});
      }
    }
  }
  return checks;
}

}  // namespace bws::model
