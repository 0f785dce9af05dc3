#include "beff/BeffRings.hpp"

#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace bws::beff {

const char* ring_kind_name(RingKind kind) {
  switch (kind) {
    case RingKind::Natural:
      return "natural";
    case RingKind::Random:
      return "random";
    case RingKind::Reference:
      return "reference";
  }
  return "?";
}

Ring natural_ring(int ranks) {
  if (ranks < 1) throw std::invalid_argument("a ring needs at least one rank, got " + std::to_string(ranks));
  Ring ring;
  ring.index = 0;
  ring.kind = RingKind::Natural;
  ring.order.resize(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) ring.order[static_cast<std::size_t>(r)] = r;
  return ring;
}

std::uint64_t RingRandom::below(std::uint64_t bound) {
  if (bound == 0) throw std::invalid_argument("RingRandom::below(0)");
  // Draws at or above the largest multiple of bound would favour small
  // values; they are thrown away (at most half of all draws, usually none).
  const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % bound;
  std::uint64_t x = engine_();
  while (x >= limit) x = engine_();
  return x % bound;
}

std::vector<int> RingRandom::permutation(int ranks) {
  std::vector<int> order = natural_ring(ranks).order;
  for (std::size_t i = order.size() - 1; i > 0; --i) std::swap(order[i], order[below(i + 1)]);
  return order;
}

std::vector<Ring> random_rings(int ranks, int count, std::uint64_t seed) {
  RingRandom random(seed);
  std::vector<Ring> rings;
  for (int k = 1; k <= count; ++k) rings.push_back(Ring{k, RingKind::Random, random.permutation(ranks)});
  return rings;
}

RingPlace place_in_ring(const std::vector<int>& order, int rank) {
  const std::size_t n = order.size();
  for (std::size_t p = 0; p < n; ++p) {
    if (order[p] != rank) continue;
    return RingPlace{static_cast<int>(p), order[(p + n - 1) % n], order[(p + 1) % n]};
  }
  throw std::invalid_argument("rank " + std::to_string(rank) + " is not in the ring");
}

bool is_ring_of_all_ranks(const std::vector<int>& order, int ranks) {
  if (ranks < 1 || order.size() != static_cast<std::size_t>(ranks)) return false;
  std::vector<bool> seen(order.size(), false);
  for (int r : order) {
    if (r < 0 || r >= ranks || seen[static_cast<std::size_t>(r)]) return false;
    seen[static_cast<std::size_t>(r)] = true;
  }
  return true;
}

ReferencePair choose_reference_pair(const std::vector<int>& node_of_rank) {
  if (node_of_rank.size() < 2)
    throw std::invalid_argument("the reference ring needs 2 ranks, the run has " + std::to_string(node_of_rank.size()));
  for (std::size_t r = 1; r < node_of_rank.size(); ++r)
    if (node_of_rank[r] != node_of_rank[0]) return ReferencePair{0, static_cast<int>(r), true};
  return ReferencePair{0, 1, false};
}

}  // namespace bws::beff
