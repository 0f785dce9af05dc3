#include "report/SummaryVerdicts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include "catalog/Registry.hpp"
#include "core/Hostlist.hpp"
#include "core/PrintableText.hpp"
#include "core/SampleStats.hpp"
#include "model/NodeFlags.hpp"
#include "model/NodeMetrics.hpp"

namespace bws::report {
namespace {

std::string shown(const std::string& text) { return printable_text(text, 256); }

// The p-th percentile (0..100) by linear interpolation between order statistics.
double percentile(std::vector<double> v, double p) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const double at = p / 100 * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(at));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (at - static_cast<double>(lo));
}

std::string percent_text(double percent) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f %%", percent);
  return buf;
}

// How bad a flag row is, larger worse: a bandwidth's deficit, a time's excess;
// a configuration or link finding (no percent) ranks first.
double badness(const Table& flags, std::size_t r) {
  const double percent = flags.get_double(r, "percent_of_median");
  if (!std::isfinite(percent) || percent <= 0) return 1e9;
  return flags.get_string(r, "unit") == "s" ? percent : 1e4 / percent;
}

std::string flag_line(const Table& flags, std::size_t r) {
  const std::string metric = shown(flags.get_string(r, "metric"));
  const std::string unit = flags.get_string(r, "unit");
  const double value = flags.get_double(r, "value");
  const double percent = flags.get_double(r, "percent_of_median");
  std::string status;  // as bwreport flags says it: "confirmed by the retest (40.3 GB/s)"
  if (flags.has_column("status")) {
    status = shown(flags.get_string(r, "status"));
    const double retest = flags.get_double(r, "retest_median");
    if (status != model::kFlagNotRetested)
      status += std::isfinite(retest) ? " by the retest (" + summary_value(retest, unit) + ")" : "";
  }
  // A link map verdict: its reason names the node, link or uplink; whole (the caller wraps it).
  if (catalog::is_subject_flag_metric(metric))
    return "  " + metric + ": " + shown(flags.get_string(r, "reason")) + (status.empty() ? "" : "; " + status);
  if (!std::isfinite(value))  // a configuration finding: its reason says it all
    return fit_line("  " + shown(flags.get_string(r, "host")) + "  " + metric + ": " + shown(flags.get_string(r, "reason")));
  std::string line = "  " + shown(flags.get_string(r, "host")) + "  " + metric + ": " + summary_value(value, unit);
  if (std::isfinite(percent))
    line += " = " + percent_text(percent) + " of the cohort median " + summary_value(flags.get_double(r, "median"), unit);
  if (!status.empty()) line += "; " + status;
  return fit_line(line);
}

struct MetricValues {
  bool headline = false;  // the catalog's headline metric (NodeMetric::headline)
  std::string unit;
  bool higher_is_better = true;
  std::vector<std::pair<std::string, double>> by_host;  // host, value
};

// Every node metric's values in the tables, by metric (group) name, in the catalog's order.
std::vector<std::pair<std::string, MetricValues>> metric_values(const std::vector<Table>& tables) {
  std::vector<std::pair<std::string, MetricValues>> out;
  const std::optional<NodeMetric> headline = catalog::headline_metric();
  for (const model::NodeMetricValue& v : model::node_metric_values(catalog::all_node_metrics(), tables)) {
    if (!std::isfinite(v.value)) continue;
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& m) { return m.first == v.metric; });
    if (it == out.end()) {
      out.push_back({v.metric, MetricValues{headline && v.name == headline->name, v.unit, v.higher_is_better, {}}});
      it = out.end() - 1;
    }
    it->second.by_host.emplace_back(v.host, v.value);
  }
  return out;
}

std::string cohort_of(const model::NodeCohorts& cohorts, const std::string& host) {
  const auto it = cohorts.find(host);
  return it == cohorts.end() ? std::string() : it->second;
}

}  // namespace

std::string summary_value(double value, const std::string& unit) {
  char buf[64];
  if (unit == "B/s")
    std::snprintf(buf, sizeof buf, "%.3g GB/s", value / 1e9);
  else if (unit == "s" && std::fabs(value) >= 1e-3)
    std::snprintf(buf, sizeof buf, "%.3g ms", value * 1e3);
  else if (unit == "s")
    std::snprintf(buf, sizeof buf, "%.3g us", value * 1e6);
  else if (unit == "FLOP/s")
    std::snprintf(buf, sizeof buf, "%.4g GFLOP/s", value / 1e9);  // 4 digits: 1500, never 1.5e+03
  else
    std::snprintf(buf, sizeof buf, "%.3g %s", value, shown(unit).c_str());
  return buf;
}

std::string fit_line(std::string line) {
  if (line.size() > kSummaryColumns) line = line.substr(0, kSummaryColumns - 3) + "...";
  return line;
}

std::vector<std::string> wrap_line(const std::string& line) {
  std::vector<std::string> lines;
  std::string rest = line;
  const std::string indent(kWrapIndent, ' ');
  while (rest.size() > kSummaryColumns) {
    std::size_t cut = rest.rfind(' ', kSummaryColumns);
    if (cut == std::string::npos || cut <= kWrapIndent) cut = kSummaryColumns;  // one long word: cut it
    lines.push_back(rest.substr(0, cut));
    const std::size_t next = rest.find_first_not_of(' ', cut);
    rest = indent + (next == std::string::npos ? std::string() : rest.substr(next));
  }
  lines.push_back(rest);
  return lines;
}

namespace {

// Rows of the link map's link and uplink verdicts ("a->b", "s1->top"): not
// nodes, so under their own heading, each verdict whole.
std::vector<std::string> link_verdict_lines(const Table& flags, const std::vector<std::size_t>& rows,
                                            const std::string& file) {
  if (rows.empty()) return {};
  std::vector<std::string> lines{"Flagged links and uplinks (" + std::to_string(rows.size()) + "):"};
  for (std::size_t i = 0; i < rows.size() && i < kMaxLinkLines; ++i)
    for (std::string& part : wrap_line(flag_line(flags, rows[i]))) lines.push_back(std::move(part));
  if (rows.size() > kMaxLinkLines)
    lines.push_back("  ... and " + std::to_string(rows.size() - kMaxLinkLines) + " more: bwreport flags " +
                    (file.empty() ? std::string("FILE") : file));
  return lines;
}

}  // namespace

std::vector<std::string> flag_verdict_lines(const Table& flags, long long n_nodes, const std::string& file) {
  std::vector<std::string> lines;
  const std::vector<std::string> standing = model::flagged_hosts(flags, true);
  const std::vector<std::string> all = model::flagged_hosts(flags, false);
  std::vector<std::size_t> rows, link_rows;
  for (std::size_t r = 0; r < flags.rows(); ++r)
    if (model::flag_stands(flags, r))
      (model::is_link_subject(flags.get_string(r, "host")) ? link_rows : rows).push_back(r);
  const auto worst_first = [&](std::size_t a, std::size_t b) { return badness(flags, a) > badness(flags, b); };
  std::stable_sort(rows.begin(), rows.end(), worst_first);
  std::stable_sort(link_rows.begin(), link_rows.end(), worst_first);
  const std::vector<std::string> links = link_verdict_lines(flags, link_rows, file);
  if (standing.empty() && rows.empty()) {
    lines.push_back("Flagged nodes: none of " + std::to_string(n_nodes) +
                    (all.empty() ? std::string()
                                 : " (" + std::to_string(all.size()) + " flagged at first, not confirmed by the retest)"));
    lines.insert(lines.end(), links.begin(), links.end());
    return lines;
  }
  // The hosts in the order of their worst flag.
  std::vector<std::string> hosts;
  for (std::size_t r : rows) {
    const std::string& label = flags.get_string(r, "host");
    if (model::is_link_subject(label)) continue;
    if (std::find(hosts.begin(), hosts.end(), label) == hosts.end() &&
        std::find(standing.begin(), standing.end(), label) != standing.end())
      hosts.push_back(label);
  }
  for (const std::string& h : standing)
    if (std::find(hosts.begin(), hosts.end(), h) == hosts.end()) hosts.push_back(h);
  std::string head = "Flagged nodes (" + std::to_string(standing.size()) + " of " + std::to_string(n_nodes) + "):";
  for (const std::string& h : hosts) {
    if (head.size() + h.size() + 5 > kSummaryColumns) {
      head += " ...";
      break;
    }
    head += " " + shown(h);
  }
  lines.push_back(head);
  for (std::size_t i = 0; i < rows.size() && i < kMaxFlagLines; ++i)
    for (std::string& part : wrap_line(flag_line(flags, rows[i]))) lines.push_back(std::move(part));
  if (rows.size() > kMaxFlagLines)
    lines.push_back("  ... and " + std::to_string(rows.size() - kMaxFlagLines) +
                    " more: bwreport flags " + (file.empty() ? std::string("FILE") : file));
  lines.insert(lines.end(), links.begin(), links.end());
  return lines;
}

std::vector<std::string> cohort_stat_lines(const model::NodeCohorts& cohorts, const std::vector<Table>& tables) {
  std::vector<std::pair<std::string, std::size_t>> groups;  // label, nodes: in first appearance
  std::map<std::string, std::vector<std::string>> members;   // label -> hosts
  for (const auto& [host, label] : cohorts) {
    members[label].push_back(host);
    // Captured by name: Clang 14 cannot capture a structured binding.
    auto it = std::find_if(groups.begin(), groups.end(), [&cohort = label](const auto& g) { return g.first == cohort; });
    if (it == groups.end())
      groups.push_back({label, 1});
    else
      ++it->second;
  }
  std::sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::map<std::string, std::vector<double>> headline;  // cohort -> node values
  for (const auto& [name, values] : metric_values(tables)) {
    if (!values.headline || values.unit != "B/s") continue;
    for (const auto& [host, value] : values.by_host) headline[cohort_of(cohorts, host)].push_back(value);
    break;  // the first group (Triad: cpu, double)
  }
  const std::optional<NodeMetric> headline_metric = catalog::headline_metric();
  std::vector<std::string> lines;
  if (groups.size() > 1)
    lines.push_back("Cohorts: " + std::to_string(groups.size()) + " hardware classes, each node compared only within its own");
  constexpr std::size_t kMaxCohorts = 8;
  for (std::size_t g = 0; g < groups.size() && g < kMaxCohorts; ++g) {
    const auto& [label, n] = groups[g];
    std::string stats;
    if (const auto it = headline.find(label); it != headline.end() && !it->second.empty()) {
      const double median = median_of(it->second);
      char buf[160];
      std::snprintf(buf, sizeof buf, ", %s median %.3g GB/s", shown(headline_metric->headline).c_str(), median / 1e9);
      stats = buf;
      if (it->second.size() >= static_cast<std::size_t>(model::kMinNodesForStatistics)) {
        const double p5 = percentile(it->second, 5), p95 = percentile(it->second, 95);
        std::snprintf(buf, sizeof buf, ", 5-95 %%: %+.0f/%+.0f %%", 100 * (p5 / median - 1), 100 * (p95 / median - 1));
        stats += buf;
      }
    }
    const std::string nodes = std::to_string(n) + (n == 1 ? " node" : " nodes");
    const std::string small = n < static_cast<std::size_t>(model::kMinNodesForStatistics)
                                  ? " (too few to compare: only absolute rules apply)"
                                  : "";
    std::string head = groups.size() > 1 ? "  " + shown(label) : "Cohort: " + shown(label);
    // The hosts when they fit; else the label is what gets cut: the numbers stay.
    const std::string hosts = " " + printable_text(compress_hostlist(members[label]), 1024);
    std::string tail = ": " + nodes + small + stats;
    if (head.size() + tail.size() + hosts.size() <= kSummaryColumns) tail = ": " + nodes + hosts + small + stats;
    if (head.size() + tail.size() > kSummaryColumns && tail.size() + 12 < kSummaryColumns)
      head = head.substr(0, kSummaryColumns - tail.size() - 3) + "...";
    lines.push_back(fit_line(head + tail));
  }
  if (groups.size() > kMaxCohorts)
    lines.push_back("  ... and " + std::to_string(groups.size() - kMaxCohorts) + " more cohorts: bwreport flags FILE");
  return lines;
}

std::vector<std::string> worst_node_lines(const model::NodeCohorts& cohorts, const std::vector<Table>& tables) {
  struct Ranked {
    double worst_badness;
    std::string line;
  };
  std::vector<Ranked> ranked;
  for (const auto& [name, values] : metric_values(tables)) {
    if (values.by_host.size() < 2) continue;
    std::map<std::string, std::vector<double>> by_cohort;
    for (const auto& [host, value] : values.by_host) by_cohort[cohort_of(cohorts, host)].push_back(value);
    std::map<std::string, double> median;
    for (auto& [cohort, v] : by_cohort) median[cohort] = median_of(v);
    struct Node {
      double percent;
      const std::string* host;
      double value;
    };
    std::vector<Node> nodes;
    for (const auto& [host, value] : values.by_host) {
      const double m = median[cohort_of(cohorts, host)];
      if (m > 0) nodes.push_back({100 * value / m, &host, value});
    }
    const bool higher = values.higher_is_better;
    const std::size_t k = std::min(kMaxWorstPerMetric, nodes.size());
    std::partial_sort(nodes.begin(), nodes.begin() + static_cast<std::ptrdiff_t>(k), nodes.end(),
                      [&](const Node& a, const Node& b) { return higher ? a.percent < b.percent : a.percent > b.percent; });
    if (k == 0) continue;
    std::string line = "  " + shown(name) + ":";
    for (std::size_t i = 0; i < k; ++i) {
      std::string item = std::string(i == 0 ? " " : ", ") + shown(*nodes[i].host) + " " +
                         summary_value(nodes[i].value, values.unit) + " " + percent_text(nodes[i].percent);
      if (line.size() + item.size() > kSummaryColumns) break;
      line += item;
    }
    const double p = nodes[0].percent;
    // The survey's headline metric (STREAM Triad) first; then the worst.
    const double headline = values.headline ? 1e12 : 0;
    ranked.push_back({headline + (higher ? 1e4 / std::max(p, 1e-9) : p), line});
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const Ranked& a, const Ranked& b) { return a.worst_badness > b.worst_badness; });
  std::vector<std::string> lines;
  if (ranked.empty()) return lines;
  lines.push_back("Worst nodes per metric (value, % of their cohort's median):");
  for (std::size_t i = 0; i < ranked.size() && i < kMaxMetricLines; ++i) lines.push_back(ranked[i].line);
  if (ranked.size() > kMaxMetricLines)
    lines.push_back("  ... and " + std::to_string(ranked.size() - kMaxMetricLines) + " more metrics (bwreport plot)");
  return lines;
}

std::vector<std::string> run_wide_lines(const std::vector<Table>& tables) {
  std::vector<std::string> lines;
  for (const std::string& line : catalog::run_wide_lines(tables)) lines.push_back(fit_line(shown(line)));
  return lines;
}

}  // namespace bws::report
