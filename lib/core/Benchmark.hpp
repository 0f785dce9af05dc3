#pragma once
// The interface every node-local benchmark implements (BabelStream's one
// small interface): it declares its options, plans (validates and resolves
// sizes, throwing UsageError), prepares (allocates and first-touches), runs
// on a pinned Team and returns Tables. It never prints, never calls MPI or
// HDF5. Adding a benchmark is a folder under lib/ and one line in
// lib/catalog/benchmarks.list.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/ProgramOptionsFwd.hpp"

#include "core/Config.hpp"
#include "core/RunContext.hpp"
#include "core/Table.hpp"
#include "core/TimeEstimate.hpp"

namespace bws::topo {
class Topology;
class Team;
}  // namespace bws::topo

namespace bws {

// Where a rank stands: its topology (restricted to its cpuset) and its node.
struct NodeContext {
  const topo::Topology& topology;
  std::string host;
  int rank = 0;
  int ranks_on_node = 1;   // ranks sharing this node's memory
  int local_rank = 0;
  int threads = 1;         // the Team's size
  bool quick = false;      // --quick: shortest meaningful run
  MachineSpeed speed;      // this rank's probed speed (run/MachineProbe): what estimates use
  double time_budget_seconds = 0;  // --time-budget per test; 0: none
};

class PlannedRun {
 public:
  virtual ~PlannedRun() = default;
  // One line for the terminal: what will run ("double, 16777216 elements/array, 384 MiB").
  virtual std::string describe() const = 0;
  // Bytes this rank will allocate.
  virtual std::uint64_t memory_bytes() const = 0;
  // Seconds this rank's run() is expected to take (prepare included), with
  // the terms of the sum; unknown (seconds < 0) unless the benchmark says.
  virtual TimeEstimate estimate() const { return {}; }
  // The option values --time-budget chose in place of their defaults
  // ("stream.reps" -> "11"): the stored /config records them as this run's
  // defaults, so the file says what ran (and a resume plans the same).
  virtual std::map<std::string, std::string> fitted_options() const { return {}; }
  // Allocates and first-touches; throws RuntimeFailure. Nothing is timed here.
  virtual void prepare(topo::Team& team) = 0;
  // Measures; returns result tables (and rows for the "checks" table).
  virtual std::vector<Table> run(topo::Team& team, RunContext& context) = 0;
  // Releases what prepare() allocated.
  virtual void release() {}
};

class NodeBenchmark {
 public:
  virtual ~NodeBenchmark() = default;
  virtual std::string name() const = 0;         // "stream": the --tests name and option prefix
  virtual std::string description() const = 0;  // one line for --help
  virtual void add_options(boost::program_options::options_description& desc) const = 0;
  // Validates the options against this rank's node; throws UsageError naming
  // the option and the allowed range. Called on every rank before any file
  // is created or memory allocated.
  virtual std::unique_ptr<PlannedRun> plan(const Config& config, const NodeContext& node) const = 0;
  // Combines the result tables of all ranks of one node (in rank order) into
  // node-level tables, e.g. aggregate bandwidth of ranks that ran together.
  // Rank 0 keeps these for the summary and the checks; default: none.
  virtual std::vector<Table> summarize_node(const std::vector<Table>& /*rank_tables*/) const { return {}; }
  // When the options ask for a listing instead of a run (--pmbw.routines
  // list, --ocl.list), the text to print; bwsurvey prints it and exits 0.
  virtual std::optional<std::string> listing(const Config& /*config*/) const { return std::nullopt; }
};

}  // namespace bws
