#pragma once
// A node's roofline ceilings from the tables of its ranks.
#include <vector>

#include "core/Table.hpp"

namespace bws::roofline {

// rank_tables: all tables of the node's ranks in rank order; reads
// "roofline/results" (and the BLAS text of "roofline/ranks"). Returns one
// "roofline/nodes" table with one row (none without roofline results), and
// a "checks" table when GEMM and FMA rates can be compared
// (RooflinePeakChecks.hpp: the node's GEMM above its FMA peak fails). The
// ranks ran every timed sample together. GEMM and Triad (equal work per
// rank, sharing caches and memory): the node's time of sample k is the
// slowest rank's, and its rate is the work of all ranks (FLOP, or bytes for
// the Triad) over the best such time, as /stream/nodes. FMA: each rank
// calibrated its own loop count, so equal times cannot be assumed (a rank
// with less work idles while the slowest finishes); the ranks' cores share
// nothing it uses, so the node's rate of sample k is the sum of the ranks'
// rates in that sample, and the node's peak the best such sum. Missing
// samples: core/NodeAggregate.hpp's one rule.
std::vector<Table> summarize_roofline_node(const std::vector<Table>& rank_tables);

}  // namespace bws::roofline
