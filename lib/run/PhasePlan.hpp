#pragma once
// What a run will do, decided on every rank before anything is allocated or
// created: the survey's settings, this rank's topology and pinning, one
// planned phase per selected benchmark, the
// exporters, the DIMM population and the reference values.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/Benchmark.hpp"
#include "core/CollectiveBenchmark.hpp"
#include "core/TableExporter.hpp"
#include "model/MemoryPopulation.hpp"
#include "model/References.hpp"
#include "run/CommandLine.hpp"
#include "catalog/Registry.hpp"
#include "run/RunWorld.hpp"
#include "run/SetupFailure.hpp"
#include "run/SurveySettings.hpp"
#include "topology/PinningPlan.hpp"
#include "topology/Topology.hpp"

namespace bws::run {

// One selected benchmark, planned: node-local
// (node_benchmark and node_run) or collective.
struct Phase {
  const CatalogEntry* entry;
  std::string label;  // the entry's name
  std::unique_ptr<NodeBenchmark> node_benchmark;
  std::unique_ptr<PlannedRun> node_run;
  std::unique_ptr<PlannedCollective> collective;
};

struct RunPlan {
  SurveySettings settings;
  std::optional<topo::Topology> topology;
  std::vector<topo::ThreadSlot> slots;
  std::vector<Phase> phases;
  std::map<std::string, std::unique_ptr<TableExporter>> exporters;  // rank 0, per benchmark; started with the file
  std::optional<model::MemoryPopulation> memory_population;         // node leaders: from --memory.dmidecode
  std::vector<model::Reference> references;                         // rank 0: --reference
  MachineSpeed speed;  // the ranks' probes agreed: the slowest of each (run/MachineProbe)
};

// Collective over MPI_COMM_WORLD. Every option is checked on every rank,
// against that rank's topology, before anything is allocated or created;
// every rank gets the first failure (a usage error is exit 2, anything
// else exit 1), or nothing when the plan holds.
std::optional<SetupFailure> plan_run(const CommandLine& cl, const RunWorld& world, RunPlan& plan);

// Every entry that runs, once, in the order of the phases.
std::vector<const CatalogEntry*> entries_of(const std::vector<Phase>& phases);

// The configuration as the file stores it: `config` with the values
// --time-budget chose for options left at their defaults (this rank's
// plans), still marked as defaults.
Config fitted_config(const Config& config, const std::vector<Phase>& phases);

}  // namespace bws::run
