#pragma once
// The link map's schedule: rounds of disjoint pairs (model/PairRounds: the
// circle method, N - 1 rounds for N even, N for N odd with one member
// sitting out). In its round a pair first runs 8-byte ping-pongs that each
// end starts in turn, then measures one direction at a time, the lower
// member sending first. Nothing else touches either end meanwhile,
// so every figure of the pair involves its two ends only: a slow or
// delayed link cannot spread to other pairs, as it did around the cycles
// of mpiGraph's shift pattern.
#include <algorithm>
#include <array>

#include "model/PairRounds.hpp"

namespace bws::links {

// One direction of a pair's round, as one of its two ends sees it.
struct PairDirection {
  int self = 0, sender = 0, receiver = 0, round = 0;
  bool sending() const { return self == sender; }
  int partner() const { return sending() ? receiver : sender; }
};

// The two directions of `self`'s pair with `partner` in `round`, in the
// order both ends measure them: the lower member sends first.
inline std::array<PairDirection, 2> pair_directions(int self, int partner, int round) {
  const int low = std::min(self, partner), high = std::max(self, partner);
  return {PairDirection{self, low, high, round}, PairDirection{self, high, low, round}};
}

}  // namespace bws::links
