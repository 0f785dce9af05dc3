#pragma once
// The summary of a survey, one implementation for both places it is shown:
// the terminal at the end of a run (fed from the tables rank 0 kept) and
// `bwreport summary` (fed from the file, FileSummary.cpp). Verdicts first:
// the tests and checks, the standing flags worst first, one line per cohort
// (nodes, median Triad, spread), the worst nodes per metric; then, for a
// few nodes only (kDetailNodes), each benchmark's per-node report and
// STREAM Triad against the DIMMs' peak; last where to see more (bwreport
// flags, bwreport plot) and how to get the drain lines. Under one screen
// (40 lines of 120 columns) at 10,000 nodes. The heading (what the run
// was, where it ran) is each caller's own.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/Table.hpp"
#include "report/Outcome.hpp"
#include "catalog/Registry.hpp"

namespace bws::report {

// Up to this many nodes the summary shows each benchmark's per-node tables.
inline constexpr long long kDetailNodes = 8;
// The failed checks and errors shown; the rest are in /checks.
inline constexpr std::size_t kMaxProblemLines = 10;

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
