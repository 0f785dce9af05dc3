#include "run/PhasePlan.hpp"

#include <mpi.h>

#include <boost/program_options/options_description.hpp>

#include <algorithm>
#include <iterator>
#include <map>
#include <set>

#include "core/Errors.hpp"
#include "core/FileGuard.hpp"
#include "core/OptionText.hpp"
#include "core/IniFile.hpp"
#include "core/ProbedCollective.hpp"
#include "run/MachineProbe.hpp"
#include "run/MemoryDiscovery.hpp"
#include "run/MpiCommunicator.hpp"
#include "run/TestHooks.hpp"

namespace bws::run {
namespace {

Phase plan_phase(const CatalogEntry* entry, const std::string& label, const Config& config, const NodeContext& node,
                 const RankLayout& ranks) {
  Phase phase{entry, label, nullptr, nullptr, nullptr};
  if (entry->collective()) {
    phase.collective = entry->make_collective()->plan(config, ranks);
  } else {
    phase.node_benchmark = entry->make_benchmark();
    phase.node_run = phase.node_benchmark->plan(config, node);
  }
  return phase;
}

// An option given for a test that does not run is checked as if it ran:
// a bad value is refused now (exit 2) rather than accepted silently and
// kept in /config for the next run. The test is planned and the plan
// dropped (planning allocates nothing); a failure that is not about the
// options (no OpenCL device, say) does not matter for a test not run.
void check_options_of_tests_not_run(const Config& config, const std::vector<Phase>& phases, const NodeContext& node,
                                    const RankLayout& ranks) {
  for (const CatalogEntry& entry : catalog::benchmark_registry()) {
    const bool planned = std::any_of(phases.begin(), phases.end(), [&](const Phase& p) { return p.entry == &entry; });
    if (planned) continue;
    boost::program_options::options_description desc;
    entry.add_options(desc);
    bool given = false;
    for (const auto& option : desc.options()) given = given || !option_defaulted(config, option->long_name().c_str());
    if (!given) continue;
    try {
      plan_phase(&entry, entry.name, config, node, ranks);
    } catch (const UsageError&) {
      throw;
    } catch (const std::exception&) {
    }
  }
}

// The survey file's path, checked before anything is made or removed (on
// rank 0, which writes it; the failure is agreed): --out is a new name, or
// with --force a regular file bwsurvey recognises as its own (an HDF5 file,
// or an empty one), never a device, a FIFO, a socket, a directory or a
// link, and never a file this run reads; --resume is a regular file.
void check_survey_file_path(const Config& config, const SurveySettings& settings) {
  if (!settings.resume.empty()) {
    require_regular_input("--resume", settings.resume);
    return;
  }
  std::vector<std::string> inputs;
  for (const char* key : {"config", "reference"})
    if (config.has(key) && !config.get(key).empty()) inputs.push_back(config.get(key));
  check_output_file(settings.out, OutputRules{"--out", settings.force, inputs, OwnFile::Hdf5});
}

// The plan's estimate against --time-budget, for a test that does not fit
// its plan itself (those that do have made it fit, or refused, already).
void check_time_budget(const Phase& phase, double budget_seconds) {
  if (budget_seconds <= 0) return;
  const TimeEstimate estimate = phase.collective ? phase.collective->estimate() : phase.node_run->estimate();
  if (estimate.known() && estimate.seconds > budget_seconds)
    throw UsageError(over_budget_message(phase.label, estimate, budget_seconds,
                                         "smaller values of its options (--" + phase.label + ".*)"));
}

// The probe's memory: at most 5% of this rank's share of the node.
constexpr double kProbeMemoryFraction = 0.05;

// This rank's settings, topology and pinning: what the plans are made from.
void read_this_rank(const Config& config, const RunWorld& world, RunPlan& plan) {
  plan.settings = parse_survey_settings(config);
  if (world.root()) check_survey_file_path(config, plan.settings);
  plan.topology.emplace(topo::Topology::discover());
  const int threads = plan.settings.threads == 0 ? plan.topology->info().cores : plan.settings.threads;
  plan.slots = topo::make_pinning_plan(*plan.topology, threads, plan.settings.bind);
}

// This rank's machine probe (after every option was checked: a usage
// error never waits for it).
void probe_this_rank(const RunWorld& world, const MachineSpeed& rank_timing, RunPlan& plan) {
  if (read_test_hooks().fixed_speed) return;  // the default MachineSpeed: estimates that do not follow the load
  const topo::TopologyInfo& info = plan.topology->info();
  const auto probe_limit = static_cast<std::uint64_t>(kProbeMemoryFraction * static_cast<double>(info.node_memory_bytes) /
                                                     std::max(1, world.layout.ranks_on_node));
  plan.speed = probe_machine(static_cast<int>(plan.slots.size()), info.llc_bytes, probe_limit);
  plan.speed.rank_barrier_seconds = rank_timing.rank_barrier_seconds;
  plan.speed.rank_exchange_seconds = rank_timing.rank_exchange_seconds;
  plan.speed.exchange_stretch = rank_timing.exchange_stretch;
}

// A machine no plan outruns: the plans made before the probe use it, with no
// --time-budget, to check every option's value (a plan too long for the
// budget on this machine is refused after the probe, by the real plans).
MachineSpeed unbounded_speed() {
  MachineSpeed s;
  s.memory_Bps = s.thread_memory_Bps = s.first_touch_Bps = 1e18;
  s.random_access_seconds = s.thread_sync_seconds = s.rank_barrier_seconds = s.rank_exchange_seconds = 1e-15;
  s.timer_resolution_seconds = 1e-15;
  return s;
}

// One machine speed for every rank: the slowest rate and the longest time
// any rank probed. Plans fitted to --time-budget follow the speed, and
// ranks that fitted different repetitions would wait for each other at
// different counts (a node's ranks meet per repetition, b_eff's ring per
// exchange); with one speed every rank fits the same plan, the most
// conservative one. Collective: every rank, after its probe.
void agree_on_speed(MPI_Comm comm, MachineSpeed& speed) {
  double rates[] = {speed.memory_Bps, speed.thread_memory_Bps, speed.first_touch_Bps};
  double times[] = {speed.random_access_seconds, speed.thread_sync_seconds, speed.rank_barrier_seconds,
                    speed.rank_exchange_seconds, speed.exchange_stretch, speed.timer_resolution_seconds};
  MPI_Allreduce(MPI_IN_PLACE, rates, static_cast<int>(std::size(rates)), MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, times, static_cast<int>(std::size(times)), MPI_DOUBLE, MPI_MAX, comm);
  speed.memory_Bps = rates[0];
  speed.thread_memory_Bps = rates[1];
  speed.first_touch_Bps = rates[2];
  speed.random_access_seconds = times[0];
  speed.thread_sync_seconds = times[1];
  speed.rank_barrier_seconds = times[2];
  speed.rank_exchange_seconds = times[3];
  speed.exchange_stretch = times[4];
  speed.timer_resolution_seconds = times[5];
}

// The phases' plans from `speed` and `budget_seconds` (0: none), and the
// checks of the options of tests that do not run; plans allocate nothing.
void plan_on_this_rank(const Config& config, const RunWorld& world, const std::vector<int>& node_of_rank,
                       const MachineSpeed& speed, double budget_seconds, RunPlan& plan) {
  const topo::TopologyInfo& info = plan.topology->info();
  const NodeLayout& layout = world.layout;
  const NodeContext node{*plan.topology, layout.host, world.rank, layout.ranks_on_node, layout.local_rank,
                         static_cast<int>(plan.slots.size()), plan.settings.quick, speed, budget_seconds};
  const RankLayout ranks{world.rank, world.size, layout.host, node_of_rank, layout.n_nodes,
                         info.node_memory_bytes, layout.ranks_on_node, plan.settings.quick, speed, budget_seconds};
  plan.phases.clear();
  plan.exporters.clear();
  for (const CatalogEntry* entry : plan.settings.tests) {
    plan.phases.push_back(plan_phase(entry, entry->name, config, node, ranks));
    check_time_budget(plan.phases.back(), budget_seconds);
    // Exporters only check their options here; their files are made when
    // the result file is (ResultSink::open).
    if (world.root() && entry->make_exporter) {
      if (auto exporter = entry->make_exporter(config)) plan.exporters[entry->name] = std::move(exporter);
    }
  }
  check_options_of_tests_not_run(config, plan.phases, node, ranks);
}

// The plans that are final only after measuring the network
// (core/ProbedCollective.hpp: the link map's link probe), once every rank
// holds its plans: collective, every rank probes the same phases in the
// same order. BWSURVEY_FIXED_SPEED probes nothing, as it skips the machine
// probe: the plans keep their assumed figures, the same in every run.
void probe_collectives(RunPlan& plan) {
  if (read_test_hooks().fixed_speed) return;
  MpiCommunicator world(MPI_COMM_WORLD);
  for (Phase& phase : plan.phases)
    if (auto* probed = dynamic_cast<ProbedCollective*>(phase.collective.get())) probed->probe(world);
}

// The files the options name, read once: a saved dmidecode output (a node
// whose file is missing is a usage error) and the --reference values.
void read_input_files(const RunWorld& world, RunPlan& plan) {
  if (world.layout.local_rank == 0 && !plan.settings.dmidecode_file.empty())
    plan.memory_population = read_memory_population_file(plan.settings.dmidecode_file, world.layout.host);
  if (world.root() && !plan.settings.reference.empty())
    plan.references = model::parse_references(read_config_file(plan.settings.reference, "--reference"),
                                              "--reference " + quoted_input(plan.settings.reference),
                                              catalog::all_node_metrics());
}

}  // namespace

std::optional<SetupFailure> plan_run(const CommandLine& cl, const RunWorld& world, RunPlan& plan) {
  // Where every rank is, for collective benchmarks (collective call: made
  // before anything can fail differently on different ranks).
  std::vector<int> node_of_rank(static_cast<std::size_t>(world.size));
  int node_index = world.layout.node_index;
  MPI_Allgather(&node_index, 1, MPI_INT, node_of_rank.data(), 1, MPI_INT, MPI_COMM_WORLD);
  // Every exception on any rank is caught and agreed (SetupFailure.hpp): a
  // usage error is exit 2, anything else (hwloc, std::bad_alloc) exit 1.
  // Every option and input file first, planned without a probe: a bad value
  // is refused before the probes run (about a second on a loaded node).
  const auto setup_failure = failure_of(
      [&] {
        read_this_rank(cl.config, world, plan);
        plan_on_this_rank(cl.config, world, node_of_rank, unbounded_speed(), 0, plan);
        read_input_files(world, plan);
      },
      world.rank_name());
  if (auto failure = agree_on_failure(MPI_COMM_WORLD, setup_failure)) return failure;
  // The barrier's and the ring exchange's times for the collective tests'
  // estimates (collective: every rank is here, none has failed).
  MachineSpeed rank_timing;
  rank_timing.rank_barrier_seconds = probe_rank_barrier(MPI_COMM_WORLD);
  probe_rank_exchange(MPI_COMM_WORLD, rank_timing);
  const auto probe_failure = failure_of([&] { probe_this_rank(world, rank_timing, plan); }, world.rank_name());
  if (auto failure = agree_on_failure(MPI_COMM_WORLD, probe_failure)) return failure;
  agree_on_speed(MPI_COMM_WORLD, plan.speed);
  const auto failure = failure_of(
      [&] { plan_on_this_rank(cl.config, world, node_of_rank, plan.speed, plan.settings.time_budget_seconds, plan); },
      world.rank_name());
  if (auto agreed = agree_on_failure(MPI_COMM_WORLD, failure)) return agreed;
  return agree_on_failure(MPI_COMM_WORLD, failure_of([&] { probe_collectives(plan); }, world.rank_name()));
}

std::vector<const CatalogEntry*> entries_of(const std::vector<Phase>& phases) {
  std::vector<const CatalogEntry*> entries;
  for (const Phase& phase : phases)
    if (std::find(entries.begin(), entries.end(), phase.entry) == entries.end()) entries.push_back(phase.entry);
  return entries;
}

Config fitted_config(const Config& config, const std::vector<Phase>& phases) {
  std::map<std::string, std::string, std::less<>> values = config.values();
  std::set<std::string, std::less<>> defaulted;
  for (const auto& [key, value] : values)
    if (config.is_default(key)) defaulted.insert(key);
  for (const Phase& phase : phases) {
    const auto chosen = phase.collective ? phase.collective->fitted_options()
                        : phase.node_run ? phase.node_run->fitted_options()
                                         : std::map<std::string, std::string>{};
    for (const auto& [key, value] : chosen) {
      if (values.count(key) && !defaulted.count(key)) continue;  // given: fitting never changes it
      values[key] = value;
      defaulted.insert(key);
    }
  }
  return Config(std::move(values), std::move(defaulted));
}

}  // namespace bws::run
