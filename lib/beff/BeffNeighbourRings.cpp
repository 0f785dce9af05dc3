#include "beff/BeffNeighbourRings.hpp"

#include <cstddef>
#include <unordered_map>

namespace bws::beff {

std::vector<std::vector<int>> neighbour_changing_node_orders(int nodes) {
  if (nodes <= 3) return {};
  if (nodes == 4) return {{0, 2, 1, 3}, {0, 1, 3, 2}};
  std::vector<int> order;
  if (nodes % 2 == 1) {
    // Steps of 2 visit every node when n is odd: 0 2 4 .. n-1 1 3 .. n-2.
    for (int i = 0; i < nodes; i += 2) order.push_back(i);
    for (int i = 1; i < nodes; i += 2) order.push_back(i);
    return {order};
  }
  // n = 2m >= 6: the evens up (steps of 2), then n-5, n-7, .. 1 (a step of
  // -3, then -2), then n-1 (a step of -2 around), n-3, and back to 0 (+3).
  for (int i = 0; i < nodes; i += 2) order.push_back(i);
  for (int i = nodes - 5; i >= 1; i -= 2) order.push_back(i);
  order.push_back(nodes - 1);
  order.push_back(nodes - 3);
  return {order};
}

std::vector<Ring> neighbour_changing_rings(const std::vector<int>& node_of_rank) {
  std::unordered_map<int, std::size_t> number_of_node;  // node id -> number by first rank
  std::vector<std::vector<int>> ranks_of_node;          // by that number
  for (std::size_t r = 0; r < node_of_rank.size(); ++r) {
    const auto [at, added] = number_of_node.try_emplace(node_of_rank[r], ranks_of_node.size());
    if (added) ranks_of_node.emplace_back();
    ranks_of_node[at->second].push_back(static_cast<int>(r));
  }
  std::vector<Ring> rings;
  for (const std::vector<int>& nodes : neighbour_changing_node_orders(static_cast<int>(ranks_of_node.size()))) {
    Ring ring{static_cast<int>(rings.size()) + 1, RingKind::Random, {}};
    for (int node : nodes)
      for (int rank : ranks_of_node[static_cast<std::size_t>(node)]) ring.order.push_back(rank);
    rings.push_back(std::move(ring));
  }
  return rings;
}

}  // namespace bws::beff
