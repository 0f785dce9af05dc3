#pragma once
// The summary of a survey, one implementation for both places it is shown:
// the terminal at the end of a run (fed from the tables rank 0 kept) and
// `bwreport summary` (fed from the file, FileSummary.cpp). Each benchmark's
// report, STREAM Triad against the DIMMs' peak, the cohorts and flagged
// nodes, the checks, and how to get the drain lines. The heading (what the
// run was, where it ran) is each caller's own.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/Table.hpp"
#include "report/Outcome.hpp"
#include "catalog/Registry.hpp"

namespace bws::report {

struct SummaryRecord {
  // Each benchmark that ran, in the order to show them, with the tables its
  // report and its node metrics read (summary_tables).
  std::vector<std::pair<const CatalogEntry*, std::vector<Table>>> reports;
  std::optional<Table> nodes;  // /nodes/table
  std::optional<Table> flags;  // /flags, once the nodes were checked
  long long n_nodes = 0;
  std::optional<Outcome> outcome;  // the checks (and a run's errors), when known
  std::string file;                // the result file, for the drain hint
};

// The tables the summary reads of a benchmark: its report's and its node
// metrics' (small: per node or per run, never per sample).
std::vector<std::string> summary_tables(const CatalogEntry& entry);

std::vector<std::string> summary_lines(const SummaryRecord& record);

}  // namespace bws::report
