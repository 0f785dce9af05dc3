#pragma once
// A collective plan that is final only after it has measured the network:
// the link map's message size and estimate depend on what the links do
// (over TCP a small window times the kernel's buffers, and a plan from
// assumed links said 0.2 s for a run of 40 s). plan() cannot communicate,
// so run/PhasePlan calls probe() collectively on every rank after every
// plan was made and agreed, and before the file is created: the plan
// re-fits itself from the probe's figures, the same on every rank, and the
// stored /config (fitted_options), the plan line, the estimate and the run
// all read the re-fitted plan. A separate interface, not a virtual of
// PlannedCollective: only the plans that need it implement it.
#include "core/CollectiveBenchmark.hpp"

namespace bws {

class ProbedCollective : public PlannedCollective {
 public:
  // Collective over `world`: every rank calls it and gets the same figures.
  // Throws UsageError (on every rank alike) when the re-fitted plan does
  // not fit its budget.
  virtual void probe(Communicator& world) = 0;
};

}  // namespace bws
