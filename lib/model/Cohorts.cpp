#include "model/Cohorts.hpp"

#include <cmath>
#include <cstdio>

namespace bws::model {

double memory_class_gib(std::uint64_t memory_bytes) {
  const double gib = static_cast<double>(memory_bytes) / (1024.0 * 1024.0 * 1024.0);
  if (!(gib > 0)) return 0;
  return std::exp2(std::round(std::log2(gib) * 4) / 4);
}

std::string hardware_class(const std::string& cpu_model, std::int64_t cores, std::uint64_t memory_bytes) {
  char text[64];
  const double gib = memory_class_gib(memory_bytes);
  std::snprintf(text, sizeof text, "%lld cores, %.*f GiB", static_cast<long long>(cores), gib < 10 ? 1 : 0, gib);
  return (cpu_model.empty() ? std::string("unknown CPU") : cpu_model) + ", " + text;
}

NodeCohorts node_cohorts(const Table& nodes) {
  NodeCohorts cohorts;
  const bool has_model = nodes.has_column("cpu_model");
  for (std::size_t r = 0; r < nodes.rows(); ++r)
    cohorts[nodes.get_string(r, "host")] =
        hardware_class(has_model ? nodes.get_string(r, "cpu_model") : std::string(), nodes.get_int(r, "cores"),
                       static_cast<std::uint64_t>(nodes.get_int(r, "memory_bytes")));
  return cohorts;
}

}  // namespace bws::model
