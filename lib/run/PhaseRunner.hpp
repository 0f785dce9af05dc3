#pragma once
// Runs one planned phase on every rank as a step of the file: the step is
// marked, the watchdog armed with --phase-timeout, the benchmark run
// (node-local: every rank prepares, measures in its node's turn, the node
// leaders summarize; collective: all ranks together), the records gathered
// to rank 0 and stored, the step committed. A rank that does not finish by
// the deadline is named and the job ended.
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>

#include "run/FaultHooks.hpp"
#include "run/NodeTurns.hpp"
#include "run/PhasePlan.hpp"
#include "run/ResultSink.hpp"
#include "run/RunWorld.hpp"
#include "run/Watchdog.hpp"
#include "topology/Team.hpp"

namespace bws::run {

class PhaseRunner {
 public:
  // Rank 0 ends the job with a reason (marks the file, MPI_Abort).
  using AbortJob = std::function<void(const std::string& reason)>;

  PhaseRunner(const RunWorld& world, const NodeTurns& turns, topo::Team& team, ResultSink& sink, Watchdog& watchdog,
              const FaultHooks& hooks, double phase_timeout_seconds, std::ostream& err, AbortJob abort_job);

  // Collective. False when the run cannot go on (the phase failed, or the
  // file could not keep it).
  bool run(Phase& phase);

 private:
  TimeEstimate announce_estimate(const Phase& phase);
  bool run_node_local(Phase& phase);
  bool run_collective(Phase& phase);
  // Every rank reports to rank 0 by the phase's deadline; rank 0 ends the
  // job when some do not (naming them), else every rank gets the first error.
  std::optional<std::string> meet(const CatalogEntry& entry, const std::optional<std::string>& mine, const char* step);
  // "stream: rank 1 (n2): what went wrong"
  std::string error_line(const CatalogEntry& entry, const std::exception& e) const;

  const RunWorld& world_;
  const NodeTurns& turns_;
  topo::Team& team_;
  ResultSink& sink_;
  Watchdog& watchdog_;
  const FaultHooks& hooks_;
  double phase_timeout_seconds_;
  std::ostream& err_;
  AbortJob abort_job_;
  double deadline_ = 0;  // rank 0: MPI_Wtime() by which the phase must end, 0 = none
  int rendezvous_tag_ = kFirstRendezvousTag;

  // First rendezvous tag; each rendezvous takes the next one.
  static constexpr int kFirstRendezvousTag = 1000;
};

}  // namespace bws::run
