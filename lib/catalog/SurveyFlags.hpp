#pragma once
// The flags of a survey from its tables: the node flags of every registered
// node metric plus every benchmark's own flags (CatalogEntry::make_flags,
// e.g. the link map's verdicts). bwsurvey's rank 0 (run/KeptTables) and
// bwreport's recompute path (report/SurveyTables) both call it.
#include <string>
#include <vector>

#include "core/Table.hpp"
#include "model/Cohorts.hpp"
#include "model/NodeFlags.hpp"

namespace bws::catalog {

Table survey_flags(const std::vector<Table>& tables, const model::FlagSettings& settings,
                   const model::NodeCohorts& cohorts);

// The tables survey_flags reads: the node metrics' and the report tables
// of every benchmark with its own flags.
std::vector<std::string> flag_input_tables();

}  // namespace bws::catalog
