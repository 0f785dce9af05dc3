#pragma once
// Turns one rank's measurements into rows (load/results, with every pass's
// seconds, and a /checks row per kernel), and a node's ranks' rows into
// load/nodes rows. The ranks of a node ran each pass together (they met
// before it), so a node's pass takes as long as its slowest rank and moves
// the bytes of all of them.
#include <cstdint>
#include <string>
#include <vector>

#include "core/RankIdentity.hpp"
#include "core/Table.hpp"
#include "load/LoadTeamJobs.hpp"

namespace bws::load {

// Appends one row to `results` (make_load_results_table) and one to
// `checks` (make_checks_table): the checksum against the expected one,
// exactly (every value is a multiple of 1/4). A wrong checksum makes the
// row valid=0 and the run exit 1.
void add_load_results(Table& results, Table& checks, const RankIdentity& who, std::uint64_t elements, int reps,
                      const KernelMeasurement& m);

// load/nodes from the load/results rows of one node's ranks (other tables
// ignored); none when there are no rows.
std::vector<Table> summarize_load_node(const std::vector<Table>& rank_tables);

}  // namespace bws::load
