#include "model/MemoryFlags.hpp"

#include <cmath>
#include <map>

#include "model/NodeFlags.hpp"

namespace bws::model {
namespace {

void add_memory_flag(Table& flags, const std::string& host, const std::string& cohort, std::int64_t cohort_nodes,
                     const std::string& metric, double value, double typical, const std::string& reason) {
  flags.add_row({{"host", host},
                 {"cohort", cohort},
                 {"cohort_nodes", cohort_nodes},
                 {"metric", metric},
                 {"value", value},
                 {"median", typical},
                 {"mad", std::nan("")},
                 {"robust_z", std::nan("")},
                 {"percent_of_median", std::isfinite(typical) && typical != 0 ? 100 * value / typical : std::nan("")},
                 {"threshold", typical},
                 {"unit", std::string("channels")},
                 {"rule", std::string("memory")},
                 {"reason", reason.substr(0, 199)},
                 {"retest_values", std::string()},
                 {"retest_median", std::nan("")},
                 {"status", std::string(kFlagConfirmed)}});
}

}  // namespace

Table memory_flags(const Table& nodes, const Table& findings, const NodeCohorts& cohorts) {
  Table flags = make_flags_table();
  std::map<std::string, std::int64_t> cohort_size;
  for (const auto& [host, label] : cohorts) ++cohort_size[label];
  auto cohort_of_host = [&](const std::string& host) {
    const auto it = cohorts.find(host);
    return it == cohorts.end() ? std::string("unknown hardware") : it->second;
  };
  for (std::size_t r = 0; r < findings.rows(); ++r) {
    const std::string& host = findings.get_string(r, "host");
    const std::string cohort = cohort_of_host(host);
    add_memory_flag(flags, host, cohort, cohort_size[cohort], "memory." + findings.get_string(r, "kind"), std::nan(""),
                    std::nan(""), findings.get_string(r, "text"));
  }
  if (!nodes.has_column("memory_channels_populated")) return flags;
  // The populated channel count most of a cohort's nodes have (ties: the larger).
  std::map<std::string, std::map<std::int64_t, int>> counts;
  for (std::size_t r = 0; r < nodes.rows(); ++r) {
    const std::int64_t channels = nodes.get_int(r, "memory_channels_populated");
    if (channels > 0) ++counts[cohort_of_host(nodes.get_string(r, "host"))][channels];
  }
  for (std::size_t r = 0; r < nodes.rows(); ++r) {
    const std::int64_t channels = nodes.get_int(r, "memory_channels_populated");
    const std::string& host = nodes.get_string(r, "host");
    const std::string cohort = cohort_of_host(host);
    if (channels <= 0 || counts[cohort].size() < 2) continue;
    std::int64_t typical = 0;
    int most = 0;
    for (const auto& [c, n] : counts[cohort])
      if (n >= most) {
        most = n;
        typical = c;
      }
    if (channels == typical || most < 2) continue;
    add_memory_flag(flags, host, cohort, cohort_size[cohort], "memory.channels", static_cast<double>(channels),
                    static_cast<double>(typical),
                    "populates " + std::to_string(channels) + " memory channels; most of its cohort populate " +
                        std::to_string(typical));
  }
  return flags;
}

}  // namespace bws::model
