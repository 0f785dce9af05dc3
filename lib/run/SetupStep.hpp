#pragma once
// The run's first step: every rank starts its pinned Team (all of them, or
// the run ends), then each rank describes itself and each node's leader its
// node (/ranks, /nodes, the topology XML), stored on rank 0 as the step
// "setup". A resume on the ranks the file already describes skips the
// description.
#include <memory>

#include "run/FaultHooks.hpp"
#include "run/PhasePlan.hpp"
#include "run/ResultSink.hpp"
#include "run/RunWorld.hpp"
#include "run/Watchdog.hpp"
#include "topology/Team.hpp"

namespace bws::run {

// Collective. nullptr on every rank when some rank could not start its
// threads (rank 0 has recorded why).
std::unique_ptr<topo::Team> start_team(const RunWorld& world, const RunPlan& plan, ResultSink& sink,
                                       const FaultHooks& hooks);

// Collective. False when the file could not keep the step.
bool describe_run(const RunWorld& world, const RunPlan& plan, const topo::Team& team, ResultSink& sink,
                  Watchdog& watchdog, const FaultHooks& hooks);

}  // namespace bws::run
