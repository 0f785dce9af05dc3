#pragma once
// --retest N: once every phase ran, the flagged nodes run the flagged tests
// again N times while the other nodes wait (a collective test runs on every
// rank); rank 0 gets the metric values of every round, which confirm or
// clear each flag (model::apply_retests).
#include <iosfwd>
#include <string>
#include <vector>

#include "model/NodeMetrics.hpp"
#include "run/FaultHooks.hpp"
#include "run/NodeTurns.hpp"
#include "run/PhasePlan.hpp"
#include "run/ResultSink.hpp"
#include "run/RunWorld.hpp"
#include "run/Watchdog.hpp"
#include "topology/Team.hpp"

namespace bws::run {

// The registry entry whose run measures a /flags row's metric again, by
// its node metrics or its retest metrics ("stream.triad[double]" -> stream,
// "links.node_out" -> links); nullptr when none does (a memory
// configuration flag, a link's verdict).
const CatalogEntry* entry_retesting(const std::string& metric);

class Retest {
 public:
  Retest(const RunWorld& world, RunPlan& plan, const NodeTurns& turns, topo::Team& team, Watchdog& watchdog,
         std::ostream& err)
      : world_(world), plan_(plan), turns_(turns), team_(team), watchdog_(watchdog), err_(err) {}

  // Collective. Rank 0: the values of every round on the flagged nodes.
  std::vector<model::NodeMetricValue> run(const KeptTables& kept, const FaultHooks& hooks);

 private:
  // Rank 0: "host,host|test,test", or empty when nothing is flagged.
  std::string retest_plan(const KeptTables& kept) const;
  std::vector<Table> node_local_round(Phase& phase, bool mine);
  std::vector<Table> collective_round(Phase& phase);
  void say_failed(const Phase& phase, const std::string& error) const;

  const RunWorld& world_;
  RunPlan& plan_;
  const NodeTurns& turns_;
  topo::Team& team_;
  Watchdog& watchdog_;
  std::ostream& err_;
};

}  // namespace bws::run
