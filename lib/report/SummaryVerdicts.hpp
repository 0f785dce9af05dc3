#pragma once
// The verdict lines that open the terminal summary (RunSummary), bounded so
// that a 10,000-node survey fits one screen (<= 40 lines of <= 120 columns):
// the standing flags worst first, one line per cohort with its median Triad
// and spread, the worst nodes of each node metric. Bandwidths in GB/s (1e9),
// times in us or ms, 3 significant digits.
#include <string>
#include <vector>

#include "core/Table.hpp"
#include "model/Cohorts.hpp"

namespace bws::report {

inline constexpr std::size_t kSummaryColumns = 120;
inline constexpr std::size_t kMaxFlagLines = 10;
inline constexpr std::size_t kMaxLinkLines = 5;  // link and uplink verdicts, each whole (wrapped)
inline constexpr std::size_t kWrapIndent = 4;    // a wrapped line's continuation
inline constexpr std::size_t kMaxWorstPerMetric = 5;
inline constexpr std::size_t kMaxMetricLines = 8;

// "40.3 GB/s", "2.05 us", "1.3 ms"; other units as "%.3g UNIT".
std::string summary_value(double value, const std::string& unit);

// A line cut to kSummaryColumns ("..." at its end when cut).
std::string fit_line(std::string line);

// A line of more than kSummaryColumns broken at spaces into lines of at
// most that many, continued kWrapIndent spaces in (a word longer than a
// line is cut): a verdict that must be read whole.
std::vector<std::string> wrap_line(const std::string& line);

// "Flagged nodes (6 of 10000): h1 h2 ..." (or "Flagged nodes: none of N
// ..."), then the standing flags worst first (lowest % of the cohort median
// for bandwidths, highest for times), at most kMaxFlagLines, then "... and N
// more: bwreport flags FILE". The link map's verdicts on links and uplinks
// (their subject "a->b", "s1->top" is no node) follow under "Flagged links
// and uplinks (N):", at most kMaxLinkLines; the link map's verdicts are
// wrapped, never cut.
std::vector<std::string> flag_verdict_lines(const Table& flags, long long n_nodes, const std::string& file);

// One line per cohort: nodes, median STREAM Triad and its spread (5th-95th
// percentile). tables: those holding the node metrics.
std::vector<std::string> cohort_stat_lines(const model::NodeCohorts& cohorts, const std::vector<Table>& tables);

// Per node metric: its kMaxWorstPerMetric worst nodes against their cohort's
// median; at most kMaxMetricLines metrics, those with the worst node first.
std::vector<std::string> worst_node_lines(const model::NodeCohorts& cohorts, const std::vector<Table>& tables);

// The run-wide results of the collective benchmarks, one line each (b_eff
// per path: its natural ring, per rank, latency, the scaling verdict).
std::vector<std::string> run_wide_lines(const std::vector<Table>& tables);

}  // namespace bws::report
