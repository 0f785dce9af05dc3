#pragma once
// The run's last step, "checks" (rank 0): the node flags over every kept
// table, within hardware cohorts and with the retests' verdicts, and the
// --reference checks, stored as a step of their own so that a resume can
// redo them.
#include <optional>
#include <vector>

#include "core/Table.hpp"
#include "model/NodeMetrics.hpp"
#include "run/PhasePlan.hpp"
#include "run/ResultSink.hpp"

namespace bws::run {

// The flags when the nodes were checked and stored; nullopt when the file is
// gone or failed, or the checks could not be made (an error in the outcome).
std::optional<Table> run_checks_step(ResultSink& sink, const RunPlan& plan,
                                     const std::vector<model::NodeMetricValue>& retest_values);

}  // namespace bws::run
