#pragma once
// The rings b_eff measures (Rabenseifner's b_eff, HPCC's ring test): the
// natural ring (rank order) and random rings, each the cyclic order of a
// permutation of 0..n-1, and the 2-rank reference ring of the scaling check.
// Pure functions: rank 0 builds the rings, the benchmark broadcasts them.
#include <cstdint>
#include <random>
#include <vector>

namespace bws::beff {

enum class RingKind { Natural, Random, Reference };
const char* ring_kind_name(RingKind kind);  // "natural", "random", "reference"

struct Ring {
  int index = 0;  // 0 natural, 1..R random, R+1 the reference ring
  RingKind kind = RingKind::Natural;
  std::vector<int> order;  // order[position] = rank; every rank once
  int ranks() const { return static_cast<int>(order.size()); }
};

// Where one rank stands in a ring and who its neighbours are: a message to
// the right goes to order[position + 1], one to the left to order[position - 1]
// (cyclically). With one rank both are the rank itself; with two, the other.
struct RingPlace {
  int position = 0;
  int left = 0;
  int right = 0;
};

// 0, 1, ..., n-1. Throws std::invalid_argument for n < 1.
Ring natural_ring(int ranks);

// Draws for random rings: std::mt19937_64 with our own bounded draw
// (rejection sampling) instead of std::uniform_int_distribution, whose
// algorithm differs between standard libraries: a seed gives the same rings
// with every compiler.
class RingRandom {
 public:
  explicit RingRandom(std::uint64_t seed) : engine_(seed) {}
  // Uniform in [0, bound); bound >= 1.
  std::uint64_t below(std::uint64_t bound);
  // A uniformly random permutation of 0..n-1 (Fisher-Yates).
  std::vector<int> permutation(int ranks);

 private:
  std::mt19937_64 engine_;
};

// Rings 1..count of n ranks from one seed, drawn one after the other from
// one generator (so ring k is the same whatever count is asked for).
std::vector<Ring> random_rings(int ranks, int count, std::uint64_t seed);

// The position and neighbours of `rank`; throws std::invalid_argument when
// the rank is not in the ring.
RingPlace place_in_ring(const std::vector<int>& order, int rank);

// Every rank 0..n-1 exactly once.
bool is_ring_of_all_ranks(const std::vector<int>& order, int ranks);

// The two world ranks of the scaling reference: rank 0 and
// the lowest rank on another node when there are >= 2 nodes, else ranks 0
// and 1. node_of_rank[r] is rank r's node index. Throws
// std::invalid_argument for fewer than 2 ranks.
struct ReferencePair {
  int first = 0, second = 1;
  bool across_nodes = false;
};
ReferencePair choose_reference_pair(const std::vector<int>& node_of_rank);

}  // namespace bws::beff
