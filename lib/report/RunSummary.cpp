#include "report/RunSummary.hpp"

#include <algorithm>

#include "model/Cohorts.hpp"
#include "model/NodeFlags.hpp"
#include "model/NodeMetrics.hpp"
#include "report/FlagReport.hpp"
#include "report/SummaryVerdicts.hpp"

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
  std::string tests;
  for (const auto& [entry, tables] : record.reports) {
    metric_tables.insert(metric_tables.end(), tables.begin(), tables.end());
    tests += (tests.empty() ? "" : ", ") + entry->name;
  }
  const bool details = record.n_nodes <= kDetailNodes;
  const std::string file = record.file.empty() ? std::string("FILE") : record.file;
  // Verdicts first: what the run measured and whether it was sound.
  if (record.outcome) {
    const Outcome& outcome = *record.outcome;
    lines.emplace_back();
    if (!tests.empty()) lines.push_back(fit_line("Tests: " + tests));
    std::string checks = "Checks: " + std::to_string(outcome.checks_passed()) + " passed, " +
                         std::to_string(outcome.checks_failed()) + " failed, " + std::to_string(outcome.warnings()) +
                         " warnings";
    if (outcome.invalid_rows() > 0) checks += "; " + std::to_string(outcome.invalid_rows()) + " result rows did not validate";
    lines.push_back(checks);
    std::vector<std::string> problems;
    add(problems, outcome.runtime_errors(), "  ERROR: ");
    add(problems, outcome.problem_lines(), "  ");
    // Not cut to the screen's width: a failed check's line ends with the
    // allowed range, and there are at most kMaxProblemLines of them.
    for (std::size_t i = 0; i < problems.size() && i < kMaxProblemLines; ++i) lines.push_back(problems[i]);
    if (problems.size() > kMaxProblemLines)
      lines.push_back("  ... and " + std::to_string(problems.size() - kMaxProblemLines) + " more in /checks of " + file);
  }
  const model::NodeCohorts cohorts = record.nodes ? model::node_cohorts(*record.nodes) : model::NodeCohorts{};
  if (record.flags) {
    lines.emplace_back();
    add(lines, flag_verdict_lines(*record.flags, record.n_nodes, record.file));
    add(lines, cohort_stat_lines(cohorts, metric_tables));
    if (!details) add(lines, worst_node_lines(cohorts, metric_tables));
  }
  if (!details) {
    std::vector<std::string> run_wide = run_wide_lines(metric_tables);
    if (!run_wide.empty()) lines.emplace_back();
    add(lines, std::move(run_wide));
  }
  // Then the details: each benchmark's per-node table, for a few nodes only.
  if (details) {
    for (const auto& [entry, tables] : record.reports) {
      // A shared table (bs/fits holds the cpu and the ocl rows) may hold
      // nothing for this report: no blank line for it then.
      std::vector<std::string> report = entry->make_report()->summary_lines(tables);
      if (report.empty()) continue;
      lines.emplace_back();
      add(lines, std::move(report));
    }
    if (record.flags && record.nodes) {
      std::vector<std::string> peak = peak_fraction_lines(*record.nodes, metric_tables);
      if (!peak.empty()) lines.emplace_back();
      add(lines, std::move(peak));
    }
  }
  if (record.flags) {
    lines.emplace_back();
    // Not cut to the screen's width: these are commands to copy, whatever the path's length.
    lines.push_back("Every flag: bwreport flags " + file);
    lines.push_back(std::string(details ? "The report: " : "The report (per-node tables): ") + "bwreport plot " + file +
                    " -o DIR");
    if (!model::flagged_hosts(*record.flags, true).empty())
      lines.push_back("Drain lines (printed, never run): bwreport drain " + file + " [--unconfirmed]");
  }
  return lines;
}

}  // namespace bws::report
