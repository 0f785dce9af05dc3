#pragma once
// Where this process stands in the job: its rank, its node, and (on rank 0)
// every rank's host, to name ranks that do not arrive. Made once when a run
// starts; every collaborator of the run reads it.
#include <string>
#include <vector>

#include "run/MpiWorld.hpp"

namespace bws::run {

struct RunWorld {
  int rank = 0, size = 1;
  NodeLayout layout;
  std::vector<std::string> rank_hosts;  // by rank, on rank 0

  bool root() const { return rank == 0; }
  // "rank 1 (node7)"
  std::string rank_name() const { return "rank " + std::to_string(rank) + " (" + layout.host + ")"; }
};

// Collective over MPI_COMM_WORLD.
RunWorld discover_run_world();

}  // namespace bws::run
