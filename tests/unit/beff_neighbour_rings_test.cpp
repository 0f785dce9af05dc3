// The retest's rings of b_eff per rank: every natural pair of neighbouring
// nodes is apart on at least one of them, a node's ranks stay together, and
// every rank is in every ring. Checked by counting node pairs from the ring
// orders, for block and cyclic placements of 1-3 ranks per node.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "beff/BeffNeighbourRings.hpp"

namespace {
using bws::beff::neighbour_changing_rings;
using NodePair = std::pair<int, int>;

std::vector<int> placement(int nodes, int per_node, bool cyclic) {
  std::vector<int> node_of_rank;
  for (int r = 0; r < nodes * per_node; ++r) node_of_rank.push_back(cyclic ? r % nodes : r / per_node);
  return node_of_rank;
}

// The pairs of different nodes that a ring order (of ranks) makes neighbours.
std::set<NodePair> node_pairs(const std::vector<int>& order, const std::vector<int>& node_of_rank) {
  std::set<NodePair> pairs;
  for (std::size_t p = 0; p < order.size(); ++p) {
    const int a = node_of_rank[static_cast<std::size_t>(order[p])];
    const int b = node_of_rank[static_cast<std::size_t>(order[(p + 1) % order.size()])];
    if (a != b) pairs.insert({std::min(a, b), std::max(a, b)});
  }
  return pairs;
}

std::vector<int> natural_order(std::size_t ranks) {
  std::vector<int> order;
  for (std::size_t r = 0; r < ranks; ++r) order.push_back(static_cast<int>(r));
  return order;
}

TEST(BeffNeighbourRings, EveryNaturalNeighbourIsApartOnSomeRing) {
  for (int nodes = 4; nodes <= 41; ++nodes)
    for (int per_node = 1; per_node <= 3; ++per_node)
      for (bool cyclic : {false, true}) {
        SCOPED_TRACE(std::to_string(nodes) + " nodes x " + std::to_string(per_node) + (cyclic ? " cyclic" : " block"));
        const std::vector<int> node_of_rank = placement(nodes, per_node, cyclic);
        const auto rings = neighbour_changing_rings(node_of_rank);
        ASSERT_EQ(rings.size(), nodes == 4 ? 2u : 1u);
        const std::set<NodePair> natural = node_pairs(natural_order(node_of_rank.size()), node_of_rank);
        std::vector<std::set<NodePair>> per_ring;
        for (const auto& ring : rings) {
          std::vector<int> sorted = ring.order;
          std::sort(sorted.begin(), sorted.end());
          ASSERT_EQ(sorted, natural_order(node_of_rank.size())) << "every rank once";
          per_ring.push_back(node_pairs(ring.order, node_of_rank));
          // A node's ranks together: a ring of n nodes has n node pairs.
          EXPECT_EQ(per_ring.back().size(), static_cast<std::size_t>(nodes));
        }
        for (const NodePair& pair : natural) {
          bool apart_somewhere = false;
          for (const auto& pairs : per_ring) apart_somewhere = apart_somewhere || !pairs.count(pair);
          EXPECT_TRUE(apart_somewhere) << pair.first << "-" << pair.second;
          if (nodes >= 5) {
            EXPECT_FALSE(per_ring[0].count(pair)) << "one ring with no natural pair at all";
          }
        }
      }
}

TEST(BeffNeighbourRings, NoneForThreeNodesOrFewer) {
  for (int nodes = 1; nodes <= 3; ++nodes) EXPECT_TRUE(neighbour_changing_rings(placement(nodes, 2, false)).empty());
  EXPECT_TRUE(neighbour_changing_rings({}).empty());
}

TEST(BeffNeighbourRings, NodesAreNumberedByTheirFirstRank) {
  // Node ids 7, 3, 9, 5, 1 (any integers): the ring of 5 nodes in steps of
  // 2 by first rank is 7 9 1 3 5, i.e. ranks 0 2 4 1 3.
  const auto rings = neighbour_changing_rings({7, 3, 9, 5, 1});
  ASSERT_EQ(rings.size(), 1u);
  EXPECT_EQ(rings[0].order, (std::vector<int>{0, 2, 4, 1, 3}));
}
}  // namespace
