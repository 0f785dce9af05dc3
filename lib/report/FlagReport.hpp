#pragma once
// The summary's lines about /flags: the hardware cohorts, which nodes are
// flagged, and per flag the value against its cohort's median and what the
// retest said; then how to get the drain lines. Shared by bwsurvey's
// summary and bwreport.
#include <string>
#include <vector>

#include "core/Table.hpp"
#include "model/Cohorts.hpp"

namespace bws::report {

// A figure as the summary prints it: bandwidths (B/s) in GB/s, times (s)
// in us, anything else as it is with its unit.
std::string value_with_unit(double value, const std::string& unit);

// "Cohorts: 2 ..." (one line per cohort when there are several),
// "Flagged nodes: none of 4" or "Flagged nodes (1 of 4): n3", one line per
// flag. n_nodes: the run's.
std::vector<std::string> flag_summary_lines(const Table& flags, long long n_nodes, const model::NodeCohorts& cohorts);

// The summary's last line when a flag stands: how to get the drain lines.
std::vector<std::string> drain_hint_lines(const Table& flags, const std::string& file);

// The cohorts as summary lines: "Cohort: LABEL (4 nodes)" or, for several,
// "Cohorts: 2" and "  LABEL: 2 nodes n[1-2] ..." (a cohort of 1 or 2 says
// that only absolute rules apply to it).
std::vector<std::string> cohort_summary_lines(const model::NodeCohorts& cohorts);

// STREAM Triad as a fraction of each node's theoretical memory bandwidth
// (its DIMMs, /nodes/table memory_theoretical_Bps), or one line saying it is
// unknown and why. nodes: /nodes/table; tables: those holding the metrics.
std::vector<std::string> peak_fraction_lines(const Table& nodes, const std::vector<Table>& tables);

}  // namespace bws::report
