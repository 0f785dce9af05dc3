#pragma once
// The terminal summary rebuilt from a survey file (bwreport summary): run
// attributes and where it ran (the Slurm job, its nodes and SLURM_*
// variables from /provenance), each benchmark's report over its stored
// tables, the flagged nodes and the checks. For a merged scaling study: its
// runs and the scaling verdict.
#include <string>
#include <vector>

namespace bws::report {

std::vector<std::string> summarize_file(const std::string& path);

}  // namespace bws::report
