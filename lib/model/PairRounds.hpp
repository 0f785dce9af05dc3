#pragma once
// Rounds of disjoint pairs that meet every pair of N members exactly once:
// the circle method of a round-robin tournament. With N even there are
// N - 1 rounds and every member has a partner in each; with N odd a
// phantom member N makes it even, so there are N rounds and in each one
// member (the phantom's partner) sits out. Member K = M - 1 (M = N rounded
// up to even) stays fixed; in round r it meets member r, and every other
// member x meets (2r - x) mod K. The link map measures one round at a
// time: no member talks to two others at once, so what a pair measures
// involves that pair's two ends only. Pure.
namespace bws::model {

// The number of rounds for `members` (0 below 2).
int pair_rounds(int members);

// Member `member`'s partner in round `round` (0 <= round < pair_rounds),
// or -1 when it sits out that round (N odd) or an argument is out of range.
int round_partner(int member, int round, int members);

// The round in which members a and b meet; -1 for a == b or out of range.
int round_of_pair(int a, int b, int members);

}  // namespace bws::model
