#pragma once
// Rings that give every rank other neighbours than the natural ring does,
// node by node. A rank's own b_eff (/beff/ranks) is the time of its
// exchanges with its two ring neighbours, so a slow NIC lowers the figure of
// the ranks beside it too. A rank that is slow only beside one node is fast
// on a ring where that node is not its neighbour; a slow NIC is slow on every
// ring. The retest of b_eff per rank measures these rings and the natural
// one, and keeps each rank's best: no two nodes are neighbours on all of
// them, so only a slow node is slow on its best ring.
#include <vector>

#include "beff/BeffRings.hpp"

namespace bws::beff {

// Nodes are numbered by their first rank (node_of_rank[r] is rank r's node
// index, any integers), so the natural ring joins node i to node i + 1 and
// the last to the first, for ranks placed by node (block) or cyclically.
// The rings returned keep each node's ranks together, in rank order, and
// together join no two nodes that the natural ring joins in every one of
// them: with n >= 5 nodes one ring with no natural node pair at all (node
// steps of 2 and 3); with 4 nodes the other two of the three rings of 4
// (each natural pair is missing from one of them); with 3 nodes or fewer
// none (every node is a neighbour of every other on any ring).
std::vector<Ring> neighbour_changing_rings(const std::vector<int>& node_of_rank);

// The node orders behind it, for n nodes numbered 0..n-1.
std::vector<std::vector<int>> neighbour_changing_node_orders(int nodes);

}  // namespace bws::beff
