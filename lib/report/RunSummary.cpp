#include "report/RunSummary.hpp"

#include <algorithm>

#include "model/Cohorts.hpp"
#include "model/NodeMetrics.hpp"
#include "report/FlagReport.hpp"

namespace bws::report {
namespace {

void add(std::vector<std::string>& lines, std::vector<std::string> more, const std::string& indent = "") {
  for (std::string& line : more) lines.push_back(indent + std::move(line));
}

}  // namespace

std::vector<std::string> summary_tables(const CatalogEntry& entry) {
  std::vector<std::string> paths = entry.report_tables;
  for (const std::string& p : model::metric_tables(entry.node_metrics))
    if (std::find(paths.begin(), paths.end(), p) == paths.end()) paths.push_back(p);
  return paths;
}

std::vector<std::string> summary_lines(const SummaryRecord& record) {
  std::vector<std::string> lines;
  std::vector<Table> metric_tables;
  for (const auto& [entry, tables] : record.reports) {
    metric_tables.insert(metric_tables.end(), tables.begin(), tables.end());
    // A shared table (bs/fits holds the cpu and the ocl rows) may hold
    // nothing for this report: no blank line for it then.
    std::vector<std::string> report = entry->make_report()->summary_lines(tables);
    if (report.empty()) continue;
    lines.emplace_back();
    add(lines, std::move(report));
  }
  if (record.flags) {
    lines.emplace_back();
    if (record.nodes) add(lines, peak_fraction_lines(*record.nodes, metric_tables));
    const model::NodeCohorts cohorts = record.nodes ? model::node_cohorts(*record.nodes) : model::NodeCohorts{};
    add(lines, flag_summary_lines(*record.flags, record.n_nodes, cohorts));
  }
  if (record.outcome) {
    const Outcome& outcome = *record.outcome;
    lines.emplace_back();
    std::string checks = "Checks: " + std::to_string(outcome.checks_passed()) + " passed, " +
                         std::to_string(outcome.checks_failed()) + " failed, " + std::to_string(outcome.warnings()) +
                         " warnings";
    if (outcome.invalid_rows() > 0) checks += "; " + std::to_string(outcome.invalid_rows()) + " result rows did not validate";
    lines.push_back(checks);
    add(lines, outcome.problem_lines(), "  ");
    add(lines, outcome.runtime_errors(), "  ERROR: ");
  }
  if (record.flags) add(lines, drain_hint_lines(*record.flags, record.file));
  return lines;
}

}  // namespace bws::report
