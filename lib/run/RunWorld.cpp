#include "run/RunWorld.hpp"

#include <mpi.h>

#include "core/ResultColumns.hpp"

namespace bws::run {
namespace {

// Every rank's host, on rank 0 (to name ranks that do not arrive).
std::vector<std::string> gather_hosts(MPI_Comm comm, const std::string& host) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  constexpr int kWidth = static_cast<int>(kHostWidth);
  std::string mine = host.substr(0, kHostWidth - 1);
  mine.resize(kHostWidth, '\0');
  std::vector<char> all(rank == 0 ? static_cast<std::size_t>(size) * kHostWidth : 0);
  MPI_Gather(mine.data(), kWidth, MPI_CHAR, all.data(), kWidth, MPI_CHAR, 0, comm);
  std::vector<std::string> hosts;
  for (int r = 0; r < (rank == 0 ? size : 0); ++r) hosts.emplace_back(&all[static_cast<std::size_t>(r) * kHostWidth]);
  return hosts;
}

}  // namespace

RunWorld discover_run_world() {
  RunWorld world;
  MPI_Comm_rank(MPI_COMM_WORLD, &world.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world.size);
  world.layout = discover_node_layout(MPI_COMM_WORLD);
  world.rank_hosts = gather_hosts(MPI_COMM_WORLD, world.layout.host);
  return world;
}

}  // namespace bws::run
