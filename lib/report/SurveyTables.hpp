#pragma once
// What several bwreport commands read from a survey file: the tables the
// node metrics come from, and the flag settings (the run's own, from its
// /config, unless the command line gives others).
#include <string>
#include <vector>

#include "core/ProgramOptionsFwd.hpp"

#include "core/Table.hpp"
#include "h5/ResultFile.hpp"
#include "model/NodeFlags.hpp"

namespace bws::report {

inline constexpr const char* kMergedFileKind = "scaling-study";

// True for a file `bwreport merge` wrote.
bool is_merged_file(const h5::ResultReader& file);
// UsageError "bwreport <command>: '<path>' is a merged scaling study; give one run's survey file".
void require_survey_file(const h5::ResultReader& file, const std::string& path, const std::string& command);
// For commands that take one run's measurements (merge, campaign, history
// add): also refuses a campaign file ("give its batches' survey files").
void require_one_survey(const h5::ResultReader& file, const std::string& path, const std::string& command);

// Every table a registered node metric reads, that the file has.
std::vector<Table> read_metric_tables(const h5::ResultReader& file);

// The hardware cohorts of the file's nodes (/nodes/table); none without it.
model::NodeCohorts read_node_cohorts(const h5::ResultReader& file);

// --flags.k, --flags.fraction, --flags.floor for a bwreport command, with
// no defaults of their own: the survey's values (its /config) apply unless given.
void add_flag_override_options(boost::program_options::options_description& desc);
model::FlagSettings flag_settings_for(const h5::ResultReader& file, const boost::program_options::variables_map& given);

// The survey's own /flags (with its cohorts and retest verdicts), unless
// --flags.* are given or the file has none: then computed again from the
// stored tables, without retests. `stored` says which.
Table survey_flags(const h5::ResultReader& file, const boost::program_options::variables_map& given, bool& stored);

// nodes/verdicts (an export view, not stored): every node's value of every
// node metric judged by the flag rule with the survey's settings: host,
// cohort, cohort_nodes, metric (with its group), name, value, unit,
// higher_is_better, median (of the cohort peers), mad, robust_z,
// percent_of_median, limit (the value at which the rule flags the node),
// fraction_limit and spread_limit (each rule's own), rule ("fraction",
// "spread", "floor" or ""), floor. The HTML report draws
// its verdicts, cohorts and distributions from it: one source, the C++ rule.
inline constexpr const char* kNodeVerdictsPath = "nodes/verdicts";
Table node_verdicts(const h5::ResultReader& file);

// nodes/cohorts (an export view): host, hardware_class: each node's
// cohort of /nodes/table (model::node_cohorts), nodes without metrics too.
inline constexpr const char* kNodeCohortsPath = "nodes/cohorts";
Table node_cohort_table(const h5::ResultReader& file);

}  // namespace bws::report
