#pragma once
// The ranks of one node in node-local phases: ranks whose CPUs overlap take
// turns (RankTurns.hpp), the node's leader combines the records of the turn
// that stands for the node into node-level tables, and figures above the
// node's physical ceiling are marked invalid.
#include <mpi.h>

#include <iosfwd>
#include <vector>

#include "core/Benchmark.hpp"
#include "core/Table.hpp"
#include "model/NodeCeiling.hpp"
#include "run/RunWorld.hpp"
#include "topology/PinningPlan.hpp"
#include "topology/Topology.hpp"

namespace bws::run {

// The barrier of the ranks measured together (NodeSync of node-local benchmarks).
class MpiNodeSync final : public NodeSync {
 public:
  explicit MpiNodeSync(MPI_Comm comm) : comm_(comm) {}
  void barrier() override { MPI_Barrier(comm_); }

 private:
  MPI_Comm comm_;
};

class NodeTurns {
 public:
  // Collective on the node: every rank learns its turn and the node's
  // ceiling; the leader of a node with several turns says so on `err`.
  NodeTurns(const RunWorld& world, const topo::Topology& topology, const std::vector<topo::ThreadSlot>& slots,
            std::ostream& err);

  // The node's ranks measured together with this one.
  MPI_Comm turn_comm() const { return turn_comm_; }
  // How many turns this node's ranks take (1 when none overlap).
  int turns() const { return n_turns_; }

  // Calls `measure` on this rank in its turn; the node's other turns wait.
  template <class Measure>
  void run_in_turns(Measure&& measure) const {
    for (int t = 0; t < n_turns_; ++t) {
      if (t == turn_) measure();
      if (n_turns_ > 1) wait_for_turn_end();
    }
  }

  // Collective on the node: its leader combines the records of the ranks
  // that ran together (the widest turn) into node-level tables, and marks
  // any figure above the node's physical ceiling invalid. Other ranks get
  // nothing.
  std::vector<Table> summarize(const NodeBenchmark& benchmark, const std::vector<Table>& tables) const;

 private:
  // The node's barrier between turns, sleeping while it waits: a rank that
  // spun in MPI_Barrier would take the CPU from the turn it waits for.
  void wait_for_turn_end() const;

  const NodeLayout& layout_;
  MPI_Comm turn_comm_ = MPI_COMM_NULL;
  std::vector<int> turn_of_local_ = {0};
  int turn_ = 0, n_turns_ = 1, widest_turn_ = 0;
  model::NodeCeiling ceiling_;
};

}  // namespace bws::run
