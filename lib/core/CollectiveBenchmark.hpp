#pragma once
// The interface of a benchmark that runs across ranks (the b_eff ring): the
// same shape as NodeBenchmark, but run() is collective over a communicator
// and rank 0 returns the tables. It never prints, never touches HDF5 and
// never sees MPI: the coordinator hands it a Communicator.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/ProgramOptionsFwd.hpp"

#include "core/Communicator.hpp"
#include "core/Config.hpp"
#include "core/MatrixSink.hpp"
#include "core/RunContext.hpp"
#include "core/Table.hpp"
#include "core/TimeEstimate.hpp"

namespace bws {

// Where the ranks are: the same on every rank.
struct RankLayout {
  int rank = 0;
  int size = 1;
  std::string host;
  std::vector<int> node_of_rank;  // node index of every rank (0..n_nodes-1)
  int n_nodes = 1;
  std::uint64_t node_memory_bytes = 0;  // this rank's node
  int ranks_on_node = 1;
  bool quick = false;
  MachineSpeed speed;              // this rank's probed speed (run/MachineProbe)
  double time_budget_seconds = 0;  // --time-budget per test; 0: none
};

class PlannedCollective {
 public:
  virtual ~PlannedCollective() = default;
  virtual std::string describe() const = 0;
  // Seconds run() is expected to take, with the terms of the sum; unknown
  // (seconds < 0) unless the benchmark says.
  virtual TimeEstimate estimate() const { return {}; }
  // The option values --time-budget chose in place of their defaults
  // ("stream.reps" -> "11"): the stored /config records them as this run's
  // defaults, so the file says what ran (and a resume plans the same).
  virtual std::map<std::string, std::string> fitted_options() const { return {}; }
  // Collective over `world`: every rank calls it. Rank 0 returns the tables
  // (results, summaries, checks); other ranks return nothing. A matrix too
  // large for rank 0's memory goes to `matrices` row batch by row batch.
  virtual std::vector<Table> run(Communicator& world, Progress& progress, MatrixSink& matrices) = 0;
  // A retest round (--retest): collective as run(); rank 0 returns at least
  // the tables the entry's node metrics read. The planned run again unless a
  // benchmark's per-node figure depends on where it placed the ranks (b_eff's
  // ring neighbours), which then measures it with other placements.
  virtual std::vector<Table> retest(Communicator& world, Progress& progress, MatrixSink& matrices) {
    return run(world, progress, matrices);
  }
};

class CollectiveBenchmark {
 public:
  virtual ~CollectiveBenchmark() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  virtual void add_options(boost::program_options::options_description& desc) const = 0;
  // Validates the options; throws UsageError naming the option and the
  // allowed range. Called on every rank before anything is created.
  virtual std::unique_ptr<PlannedCollective> plan(const Config& config, const RankLayout& layout) const = 0;
};

}  // namespace bws
