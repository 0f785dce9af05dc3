#pragma once
// The summary's lines about /flags: which nodes are flagged, and per flag
// the value against the median. Shared by bwsurvey's summary and bwreport.
#include <string>
#include <vector>

#include "core/Table.hpp"

namespace bws::survey {

// "Flagged nodes: none (4 nodes checked ...)" or
// "Flagged nodes (1 of 4): n3" and one line per flag. n_nodes: the run's.
std::vector<std::string> flag_summary_lines(const Table& flags, long long n_nodes);

}  // namespace bws::survey
