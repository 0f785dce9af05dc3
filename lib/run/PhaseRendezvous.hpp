#pragma once
// Where the ranks meet at the end of a step of a node-local phase: every rank
// reports to rank 0 that it is done, with its error line if it failed
// (naming its host and the reason), and rank 0 waits for all of them, but
// only until a deadline (--phase-timeout). Then rank 0 tells every rank the
// first failing rank's error, or, when some ranks did not arrive in time,
// names them and the caller ends the job. Unlike a plain collective, a rank
// that never comes back cannot make the others wait forever, and rank 0
// knows who it is.
#include <mpi.h>

#include <optional>
#include <string>
#include <vector>

namespace bws::run {

struct Rendezvous {
  std::optional<std::string> error;  // the lowest failing rank's error line (every rank)
  std::vector<int> missing;          // ranks that did not arrive by the deadline (rank 0 only)
};

// Collective over comm, with point-to-point messages on `tag` (distinct per
// call). deadline: MPI_Wtime() by which every rank must have arrived; <= 0
// waits forever. When `missing` is not empty rank 0 returns at once and the
// other ranks are left waiting for a verdict that never comes: the caller
// must end the job (MPI_Abort).
Rendezvous meet_at_root(MPI_Comm comm, const std::optional<std::string>& mine, double deadline, int tag);

// "1 (n2), 3 (n4)": ranks with their hosts, when known (hosts by rank).
std::string describe_ranks(const std::vector<int>& ranks, const std::vector<std::string>& hosts);

}  // namespace bws::run
