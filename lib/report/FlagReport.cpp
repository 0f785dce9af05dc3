#include "report/FlagReport.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include "catalog/Registry.hpp"
#include "core/Hostlist.hpp"
#include "core/PrintableText.hpp"
#include "model/NodeFlags.hpp"

namespace bws::report {
namespace {

// Host names, metrics and reasons may come from a result file (bwreport):
// escaped and bounded before they are printed (printable_text is idempotent,
// so text a caller escaped already is unchanged).
std::string shown_text(const std::string& text) { return printable_text(text, 256); }


std::string retest_text(const Table& flags, std::size_t r) {
  if (!flags.has_column("status")) return {};
  const std::string& status = flags.get_string(r, "status");
  const std::string unit = flags.get_string(r, "unit");
  const double retest = flags.get_double(r, "retest_median");
  if (status == model::kFlagNotRetested) return "; not retested";
  return "; " + shown_text(status) + (std::isfinite(retest) ? " by the retest (" + value_with_unit(retest, unit) + ")" : "");
}

}  // namespace

std::string value_with_unit(double value, const std::string& unit) {
  char buf[64];
  if (unit == "B/s")
    std::snprintf(buf, sizeof buf, "%.3g GB/s", value / 1e9);
  else if (unit == "s")
    std::snprintf(buf, sizeof buf, "%.3g us", value * 1e6);
  else
    std::snprintf(buf, sizeof buf, "%.4g %s", value, shown_text(unit).c_str());
  return buf;
}

std::vector<std::string> cohort_summary_lines(const model::NodeCohorts& cohorts) {
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;  // label -> hosts, first appearance
  for (const auto& [host, label] : cohorts) {
    // Captured by name: Clang 14 cannot capture a structured binding.
    auto it = std::find_if(groups.begin(), groups.end(), [&cohort = label](const auto& g) { return g.first == cohort; });
    if (it == groups.end()) {
      groups.push_back({label, {}});
      it = groups.end() - 1;
    }
    it->second.push_back(host);
  }
  std::vector<std::string> lines;
  auto size_note = [](std::size_t n) {
    return n < static_cast<std::size_t>(model::kMinNodesForStatistics)
               ? std::string(" (too few to compare: only absolute rules apply)")
               : std::string();
  };
  if (groups.size() == 1) {
    const std::size_t n = groups[0].second.size();
    lines.push_back("Cohort: " + shown_text(groups[0].first) + " (" + std::to_string(n) + (n == 1 ? " node)" : " nodes)") +
                    size_note(n));
    return lines;
  }
  lines.push_back("Cohorts: " + std::to_string(groups.size()) + " hardware classes, each node compared only within its own");
  constexpr std::size_t kMaxCohortLines = 20;
  for (std::size_t g = 0; g < groups.size() && g < kMaxCohortLines; ++g) {
    const std::size_t n = groups[g].second.size();
    lines.push_back("  " + shown_text(groups[g].first) + ": " + std::to_string(n) + (n == 1 ? " node " : " nodes ") +
                    printable_text(compress_hostlist(groups[g].second), 1024) + size_note(n));
  }
  if (groups.size() > kMaxCohortLines)
    lines.push_back("  ... " + std::to_string(groups.size() - kMaxCohortLines) + " more cohorts (bwreport flags)");
  return lines;
}

std::vector<std::string> flag_summary_lines(const Table& flags, long long n_nodes, const model::NodeCohorts& cohorts) {
  std::vector<std::string> lines = cohorts.empty() ? std::vector<std::string>{} : cohort_summary_lines(cohorts);
  const std::vector<std::string> standing = model::flagged_hosts(flags, true);
  const std::vector<std::string> all = model::flagged_hosts(flags, false);
  if (standing.empty()) {
    lines.push_back("Flagged nodes: none of " + std::to_string(n_nodes) +
                    (all.empty() ? std::string()
                                 : " (" + std::to_string(all.size()) + " flagged at first, not confirmed by the retest)"));
  } else {
    std::string list;
    constexpr std::size_t kMaxHostsInLine = 50;
    for (std::size_t i = 0; i < standing.size() && i < kMaxHostsInLine; ++i) (list += list.empty() ? "" : " ") += shown_text(standing[i]);
    if (standing.size() > kMaxHostsInLine) list += " ...";
    lines.push_back("Flagged nodes (" + std::to_string(standing.size()) + " of " + std::to_string(n_nodes) +
                    "): " + list);
  }
  constexpr std::size_t kMaxLines = 40;  // a 10,000-node survey must not flood the terminal
  for (std::size_t r = 0; r < flags.rows() && r < kMaxLines; ++r) {
    const std::string unit = flags.get_string(r, "unit");
    const double percent = flags.get_double(r, "percent_of_median");
    std::string against;
    if (std::isfinite(percent)) {
      char pct[32];
      std::snprintf(pct, sizeof pct, "%.0f %%", percent);
      against = std::string(" = ") + pct + " of the cohort median " + value_with_unit(flags.get_double(r, "median"), unit);
    }
    const double value = flags.get_double(r, "value");
    const std::string& metric = flags.get_string(r, "metric");
    if (catalog::is_subject_flag_metric(metric)) {  // a link map verdict: its line names the node, link or uplink
      lines.push_back("  " + shown_text(metric) + ": " + shown_text(flags.get_string(r, "reason")) +
                      retest_text(flags, r));
      continue;
    }
    if (!std::isfinite(value)) {  // a configuration finding: its reason says it all
      lines.push_back("  " + shown_text(flags.get_string(r, "host")) + "  " + shown_text(flags.get_string(r, "metric")) + ": " +
                      shown_text(flags.get_string(r, "reason")));
      continue;
    }
    lines.push_back("  " + shown_text(flags.get_string(r, "host")) + "  " + shown_text(flags.get_string(r, "metric")) + ": " +
                    value_with_unit(value, unit) + against + " (" + shown_text(flags.get_string(r, "reason")) +
                    retest_text(flags, r) + ")");
  }
  if (flags.rows() > kMaxLines) lines.push_back("  ... " + std::to_string(flags.rows() - kMaxLines) + " more in /flags");
  return lines;
}

std::vector<std::string> drain_hint_lines(const Table& flags, const std::string& file) {
  if (model::flagged_hosts(flags, true).empty()) return {};
  return {"Drain commands for the flagged nodes (printed, never run): bwreport drain " +
          (file.empty() ? std::string("FILE") : file) + "   (--unconfirmed adds flags that were not retested)"};
}

std::vector<std::string> peak_fraction_lines(const Table& nodes, const std::vector<Table>& tables) {
  std::vector<std::string> lines;
  if (!nodes.has_column("memory_theoretical_Bps")) return lines;
  std::map<std::string, double> peak;
  std::string unknown;
  for (std::size_t r = 0; r < nodes.rows(); ++r) {
    const double Bps = nodes.get_double(r, "memory_theoretical_Bps");
    if (std::isfinite(Bps) && Bps > 0)
      peak[nodes.get_string(r, "host")] = Bps;
    else if (unknown.empty())
      unknown = shown_text(nodes.get_string(r, "memory_source"));
  }
  if (peak.empty()) {
    lines.push_back("Theoretical memory bandwidth: " + (unknown.empty() ? std::string("unknown") : unknown));
    return lines;
  }
  std::vector<model::NodeMetric> headline;  // STREAM Triad, as the catalog says
  if (const std::optional<NodeMetric> m = catalog::headline_metric()) headline.push_back(*m);
  constexpr std::size_t kMaxLines = 20;
  std::size_t shown = 0, more = 0;
  for (const model::NodeMetricValue& v : model::node_metric_values(headline, tables)) {
    const auto it = peak.find(v.host);
    if (it == peak.end()) continue;
    if (shown == kMaxLines) {
      ++more;
      continue;
    }
    char text[200];
    std::snprintf(text, sizeof text, "  %s  %s: %.3g GB/s = %.0f %% of the DIMMs' %.4g GB/s", shown_text(v.host).c_str(),
                  shown_text(v.metric).c_str(), v.value / 1e9, 100 * v.value / it->second, it->second / 1e9);
    if (shown == 0)
      lines.push_back(shown_text(headline.front().headline) + " (" + shown_text(headline.front().name) +
                      ") against the theoretical memory bandwidth (channels x MT/s x width):");
    lines.push_back(text);
    ++shown;
  }
  if (more > 0) lines.push_back("  ... " + std::to_string(more) + " more");
  if (!unknown.empty()) lines.push_back("  other nodes: theoretical memory bandwidth " + unknown);
  return lines;
}

}  // namespace bws::report
