#pragma once
// MPI as the coordinator uses it: one session per process, and the node
// layout: which ranks share a node. Ranks are grouped by shared memory
// (MPI_Comm_split_type) and then by hostname, so pretend nodes on one host
// with their own hostnames (Slurm's multiple slurmd) count as nodes.
#include <mpi.h>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace bws::run {

class MpiSession {
 public:
  MpiSession(int* argc, char*** argv);  // MPI_Init_thread(SINGLE): only the main thread calls MPI
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  int rank_ = 0, size_ = 1;
};

struct NodeLayout {
  MPI_Comm node_comm = MPI_COMM_NULL;  // the ranks of this node
  std::string host;
  int node_index = 0;   // 0..n_nodes-1, in order of the nodes' lowest rank
  int n_nodes = 1;
  int local_rank = 0;   // rank within the node
  int ranks_on_node = 1;
  bool leader() const { return local_rank == 0; }
};

// This process's rank as its launcher set it in the environment (no MPI
// call): mpirun, PMIx (srun --mpi=pmix, prterun), PMI-1/2 (MPICH, srun
// --mpi=pmi2) or Slurm's task number, the first one set; nullopt for a
// process started alone.
std::optional<std::string> launched_rank_text();
// Whether this process is the first rank of its launch: rank 0 of mpirun or
// srun, or a process started alone. Only it prints --version and --help.
bool first_launched_rank();

NodeLayout discover_node_layout(MPI_Comm world);
std::string this_hostname();
std::string mpi_library_version();  // first line of MPI_Get_library_version

// The lowest rank for which `failed` is true, or std::nullopt when none is. Collective.
std::optional<int> first_failing_rank(MPI_Comm comm, bool failed);

// Every rank passes its error (or nothing); every rank gets the error of the
// lowest failing rank, or nothing when all succeeded. Collective.
std::optional<std::string> agree_on_error(MPI_Comm comm, const std::optional<std::string>& mine);

// Broadcasts a string from root.
std::string broadcast_text(MPI_Comm comm, const std::string& text, int root = 0);

// Every rank's string, by rank, on rank 0 (empty elsewhere). Collective.
std::vector<std::string> gather_texts(MPI_Comm comm, const std::string& text);

}  // namespace bws::run
