#include "run/SetupStep.hpp"

#include <mpi.h>

#include "run/MemoryDiscovery.hpp"
#include "run/RunMetadata.hpp"

namespace bws::run {

std::unique_ptr<topo::Team> start_team(const RunWorld& world, const RunPlan& plan, ResultSink& sink,
                                       const FaultHooks& hooks) {
  std::unique_ptr<topo::Team> team;
  std::optional<std::string> error;
  try {
    team = std::make_unique<topo::Team>(*plan.topology, plan.slots);
  } catch (const std::exception& e) {
    error = world.rank_name() + ": cannot start its threads: " + e.what();
  }
  if (auto agreed = agree_on_error(MPI_COMM_WORLD, error)) {
    if (world.root()) sink.outcome().runtime_failure(*agreed);
    return nullptr;
  }
  hooks.slow_down(*team);
  return team;
}

bool describe_run(const RunWorld& world, const RunPlan& plan, const topo::Team& team, ResultSink& sink,
                  Watchdog& watchdog, const FaultHooks& hooks) {
  if (sink.metadata_stored()) {  // a resume on the ranks the file describes
    sink.setup_done();
    return true;
  }
  sink.forget_nodes();  // measured again below
  if (world.root()) sink.start_step("setup");
  if (!sink.survived("setup")) return false;
  watchdog.arm("setup", plan.settings.phase_timeout_seconds);
  watchdog.at("describing its node");
  const NodeLayout& layout = world.layout;
  const RankPlace place{world.rank,       layout.host,          layout.node_index,
                        layout.local_rank, layout.ranks_on_node, topo::to_string(plan.settings.bind)};
  RecordBundle records;
  if (layout.leader()) {
    NodeDeclaration declared;
    declared.memory = plan.memory_population ? *plan.memory_population : read_memory_population();
    declared.memory_bytes_override = hooks.declared_memory_bytes();
    NodeRecords node = make_node_records(place, *plan.topology, declared);
    records.node_tables = std::move(node.tables);
    records.texts = std::move(node.texts);
  }
  records.rank_tables = make_rank_tables(place, *plan.topology, team);
  sink.gather(records, nullptr);
  watchdog.disarm();
  if (world.root()) sink.complete_setup();
  if (!sink.survived("setup")) return false;
  sink.setup_done();
  return true;
}

}  // namespace bws::run
