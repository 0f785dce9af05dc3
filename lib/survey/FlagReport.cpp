#include "survey/FlagReport.hpp"

#include <cmath>
#include <cstdio>

#include "model/NodeFlags.hpp"

namespace bws::survey {
namespace {

// Bandwidths in GB/s, times in us, anything else as it is.
std::string with_unit(double value, const std::string& unit) {
  char buf[64];
  if (unit == "B/s")
    std::snprintf(buf, sizeof buf, "%.3g GB/s", value / 1e9);
  else if (unit == "s")
    std::snprintf(buf, sizeof buf, "%.3g us", value * 1e6);
  else
    std::snprintf(buf, sizeof buf, "%.4g %s", value, unit.c_str());
  return buf;
}

}  // namespace

std::vector<std::string> flag_summary_lines(const Table& flags, long long n_nodes) {
  const std::vector<std::string> hosts = model::flagged_hosts(flags);
  std::vector<std::string> lines;
  if (hosts.empty()) {
    lines.push_back("Flagged nodes: none of " + std::to_string(n_nodes) +
                    (n_nodes < model::kMinNodesForStatistics
                         ? " (the median rule needs " + std::to_string(model::kMinNodesForStatistics) +
                               " nodes; only --flags.floor applies)"
                         : ""));
    return lines;
  }
  std::string list;
  for (const std::string& h : hosts) list += (list.empty() ? "" : " ") + h;
  lines.push_back("Flagged nodes (" + std::to_string(hosts.size()) + " of " + std::to_string(n_nodes) + "): " + list);
  constexpr std::size_t kMaxLines = 40;  // a 10,000-node survey must not flood the terminal
  for (std::size_t r = 0; r < flags.rows() && r < kMaxLines; ++r) {
    const std::string unit = flags.get_string(r, "unit");
    char pct[32];
    std::snprintf(pct, sizeof pct, "%.0f %%", flags.get_double(r, "percent_of_median"));
    lines.push_back("  " + flags.get_string(r, "host") + "  " + flags.get_string(r, "metric") + ": " +
                    with_unit(flags.get_double(r, "value"), unit) + " = " + pct + " of the median " +
                    with_unit(flags.get_double(r, "median"), unit) + " (" + flags.get_string(r, "reason") + ")");
  }
  if (flags.rows() > kMaxLines) lines.push_back("  ... " + std::to_string(flags.rows() - kMaxLines) + " more in /flags");
  return lines;
}

}  // namespace bws::survey
