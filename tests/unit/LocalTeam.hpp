#pragma once
// This machine's topology and a team of up to 2 threads on it, for the
// unit tests that run a benchmark end to end (bs, stream, roofline).
#include <algorithm>
#include <vector>

#include "TestSupport.hpp"
#include "core/Benchmark.hpp"
#include "core/Config.hpp"
#include "core/RunContext.hpp"
#include "topology/PinningPlan.hpp"
#include "topology/Team.hpp"
#include "topology/Topology.hpp"

namespace bws::test {

struct LocalTeam {
  topo::Topology topology = topo::Topology::discover();
  int threads = std::min(2, topology.info().cores);
  topo::Team team{topology, topo::make_pinning_plan(topology, threads, topo::BindPolicy::Compact)};

  // Rank `rank` alone on this node ("thishost"), with the team's threads.
  NodeContext node(bool quick = false, int rank = 3) const {
    return NodeContext{topology, "thishost", rank, 1, 0, threads, quick, MachineSpeed{}, 0};
  }

  // Plans `benchmark` under `config`, prepares, runs and releases it; the
  // node barriers it asks for are counted in `sync`.
  std::vector<Table> run(const NodeBenchmark& benchmark, const Config& config, const NodeContext& context_node,
                         CountingSync& sync) {
    const auto planned = benchmark.plan(config, context_node);
    planned->prepare(team);
    NullProgress progress;
    RunContext context{progress, sync};
    std::vector<Table> tables = planned->run(team, context);
    planned->release();
    return tables;
  }
};

}  // namespace bws::test
