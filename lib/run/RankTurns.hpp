#pragma once
// Ranks of one node whose threads would share CPUs are never measured at the
// same time: two ranks pinned to the same core (mpirun --bind-to none, or
// more ranks than cores) would each get half of it, and their sum would be
// a node figure nobody measured. Such ranks take turns: a rank runs in the
// first turn in which none of the ranks already there uses one of its CPUs.
// Node-level figures then come from one turn (the one with the most CPUs),
// never from a sum over turns. Pure: unit-tested without MPI.
#include <string>
#include <vector>

namespace bws::run {

// cpus[r]: the CPUs (OS indices) local rank r's threads may run on.
// Returns the turn of every local rank (0, 1, ...).
std::vector<int> assign_turns(const std::vector<std::vector<int>>& cpus);

// The turn whose ranks together use the most distinct CPUs (the first of
// equals): the turn whose node-level figures stand for the node.
int widest_turn(const std::vector<std::vector<int>>& cpus, const std::vector<int>& turns);

// "ranks 0 and 1 share CPU 0-1" lines for the overlapping pairs (local
// ranks mapped to world ranks through `world_rank`), at most `max_lines`.
std::vector<std::string> describe_overlaps(const std::vector<std::vector<int>>& cpus,
                                           const std::vector<int>& world_rank, std::size_t max_lines = 4);

// "0-3,8" for {0,1,2,3,8}.
std::string cpu_list_text(std::vector<int> cpus);

}  // namespace bws::run
