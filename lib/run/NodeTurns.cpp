#include "run/NodeTurns.hpp"

#include <algorithm>
#include <ostream>
#include <string>

#include "core/BatchedGather.hpp"
#include "run/MpiCommunicator.hpp"
#include "run/RankTurns.hpp"
#include "run/RecordBundle.hpp"

namespace bws::run {

NodeTurns::NodeTurns(const RunWorld& world, const topo::Topology& topology,
                     const std::vector<topo::ThreadSlot>& slots, std::ostream& err)
    : layout_(world.layout) {
  std::vector<int> mine;
  for (const topo::ThreadSlot& slot : slots)
    if (slot.pu_os_index >= 0) mine.push_back(slot.pu_os_index);
  if (mine.size() != slots.size() || mine.empty()) {  // unbound threads may run on any allowed PU
    mine.clear();
    for (const topo::Core& core : topology.info().core_list)
      mine.insert(mine.end(), core.pu_os_indices.begin(), core.pu_os_indices.end());
  }
  int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(layout_.ranks_on_node));
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, layout_.node_comm);
  std::vector<int> offsets(counts.size(), 0);
  for (std::size_t i = 1; i < counts.size(); ++i) offsets[i] = offsets[i - 1] + counts[i - 1];
  std::vector<int> all(static_cast<std::size_t>(offsets.back() + counts.back()));
  MPI_Allgatherv(mine.data(), count, MPI_INT, all.data(), counts.data(), offsets.data(), MPI_INT, layout_.node_comm);
  std::vector<std::vector<int>> cpus(counts.size());
  for (std::size_t r = 0; r < counts.size(); ++r)
    cpus[r].assign(all.begin() + offsets[r], all.begin() + offsets[r] + counts[r]);
  std::vector<int> world_ranks(counts.size());
  int rank = world.rank;
  MPI_Allgather(&rank, 1, MPI_INT, world_ranks.data(), 1, MPI_INT, layout_.node_comm);
  turn_of_local_ = assign_turns(cpus);
  turn_ = turn_of_local_[static_cast<std::size_t>(layout_.local_rank)];
  n_turns_ = *std::max_element(turn_of_local_.begin(), turn_of_local_.end()) + 1;
  widest_turn_ = widest_turn(cpus, turn_of_local_);
  MPI_Comm_split(layout_.node_comm, turn_, layout_.local_rank, &turn_comm_);
  std::vector<int> used;
  for (const auto& c : cpus) used.insert(used.end(), c.begin(), c.end());
  std::sort(used.begin(), used.end());
  ceiling_.cores = static_cast<int>(std::unique(used.begin(), used.end()) - used.begin());
  ceiling_.dram_Bps = topology.info().memory_bandwidth_Bps;
  ceiling_.llc_bytes = topology.info().llc_bytes;
  if (layout_.leader() && n_turns_ > 1) {
    std::string text = "bwsurvey: " + layout_.host + ": ";
    for (const std::string& line : describe_overlaps(cpus, world_ranks)) text += line + "; ";
    text += "their node-local tests run one after another in " + std::to_string(n_turns_) +
            " turns, never at the same time; node figures come from one turn, never a sum over turns "
            "(bind ranks to disjoint cores, e.g. mpirun --bind-to core, to measure them together)";
    err << text << std::endl;
  }
}

std::vector<Table> NodeTurns::summarize(const NodeBenchmark& benchmark, const std::vector<Table>& tables) const {
  std::vector<Table> node_tables;
  std::vector<Table> node_rank_tables;
  const std::vector<std::byte> payload = pack_tables(tables);
  MpiCommunicator node(layout_.node_comm);
  gather_in_batches(node, payload, kGatherBytesInFlight, [&](int local, std::span<const std::byte> bytes) {
    if (turn_of_local_[static_cast<std::size_t>(local)] != widest_turn_) return;
    for (Table& t : unpack_tables(bytes.data(), bytes.size())) node_rank_tables.push_back(std::move(t));
  });
  if (!layout_.leader()) return node_tables;
  node_tables = benchmark.summarize_node(node_rank_tables);
  Table ceiling_checks = model::enforce_node_ceiling(node_tables, layout_.host, ceiling_);
  if (ceiling_checks.rows() > 0) node_tables.push_back(std::move(ceiling_checks));
  return node_tables;
}

void NodeTurns::wait_for_turn_end() const {
  MpiCommunicator node(layout_.node_comm);
  wait_quietly_at_barrier(node);
}

}  // namespace bws::run
