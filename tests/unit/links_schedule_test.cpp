// The link map's schedule (model/PairRounds, links/LinksSchedule): rounds
// of disjoint pairs by the circle method. For N = 2..9: N - 1 rounds for N
// even and N for N odd, no member in two pairs of a round, one member
// sitting out each round exactly when N is odd, every pair meeting in
// exactly one round, both ends agreeing on the order of its two
// directions, so every ordered pair is measured once each way. A few
// rounds are written out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <set>
#include <utility>
#include <vector>

#include "links/LinksPlan.hpp"
#include "links/LinksSchedule.hpp"
#include "model/PairRounds.hpp"

namespace bws::links {
namespace {

using model::pair_rounds;
using model::round_of_pair;
using model::round_partner;

// The pairs (lower member first) of one round, in order of the lower member.
std::vector<std::pair<int, int>> pairs_of_round(int round, int n) {
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < n; ++i) {
    const int j = round_partner(i, round, n);
    if (j > i) pairs.emplace_back(i, j);
  }
  return pairs;
}

TEST(LinksSchedule, RoundsOfDisjointPairsMeetEveryPairOnce) {
  const std::map<int, int> rounds_for{{2, 1}, {3, 3}, {4, 3}, {5, 5}, {6, 5}, {7, 7}, {8, 7}, {9, 9}};
  for (const auto& [n, rounds] : rounds_for) {
    ASSERT_EQ(pair_rounds(n), rounds) << "n=" << n;
    std::map<std::pair<int, int>, int> round_of;
    for (int r = 0; r < rounds; ++r) {
      int sitting_out = 0;
      std::set<int> busy;
      for (int i = 0; i < n; ++i) {
        const int j = round_partner(i, r, n);
        if (j < 0) {
          ++sitting_out;
          continue;
        }
        EXPECT_NE(j, i) << "n=" << n << " round " << r;
        EXPECT_EQ(round_partner(j, r, n), i) << "n=" << n << " round " << r << ": partners agree";
        EXPECT_TRUE(busy.insert(i).second) << "n=" << n << " round " << r << ": member " << i << " twice";
        if (i < j) {
          EXPECT_TRUE(round_of.emplace(std::pair{i, j}, r).second) << "n=" << n << ": pair met twice";
        }
      }
      EXPECT_EQ(sitting_out, n % 2) << "n=" << n << " round " << r;
    }
    EXPECT_EQ(round_of.size(), static_cast<std::size_t>(n * (n - 1) / 2)) << "n=" << n << ": every pair meets";
    for (const auto& [pair, r] : round_of) {
      EXPECT_EQ(round_of_pair(pair.first, pair.second, n), r) << "n=" << n;
      EXPECT_EQ(round_of_pair(pair.second, pair.first, n), r) << "n=" << n;
    }
  }
}

TEST(LinksSchedule, BothEndsMeasureTheTwoDirectionsInOneOrderLowerMemberFirst) {
  for (int n = 2; n <= 9; ++n) {
    std::set<std::pair<int, int>> measured;
    for (int r = 0; r < pair_rounds(n); ++r)
      for (int i = 0; i < n; ++i) {
        const int j = round_partner(i, r, n);
        if (j < 0) continue;
        const auto mine = pair_directions(i, j, r), theirs = pair_directions(j, i, r);
        for (int k = 0; k < 2; ++k) {
          EXPECT_EQ(mine[k].sender, theirs[k].sender);
          EXPECT_EQ(mine[k].receiver, theirs[k].receiver);
          EXPECT_NE(mine[k].sending(), theirs[k].sending()) << "one end sends, the other receives";
          EXPECT_EQ(mine[k].partner(), j);
          if (mine[k].sending()) {
            EXPECT_TRUE(measured.emplace(mine[k].sender, mine[k].receiver).second);
          }
        }
        EXPECT_EQ(mine[0].sender, std::min(i, j));
      }
    EXPECT_EQ(measured.size(), static_cast<std::size_t>(n * (n - 1))) << "n=" << n << ": every ordered pair once";
  }
}

TEST(LinksSchedule, RoundsWrittenOutByHand) {
  // Four members: 3 stays, meeting 0, 1, 2 in turn; the other two meet.
  EXPECT_EQ(pairs_of_round(0, 4), (std::vector<std::pair<int, int>>{{0, 3}, {1, 2}}));
  EXPECT_EQ(pairs_of_round(1, 4), (std::vector<std::pair<int, int>>{{0, 2}, {1, 3}}));
  EXPECT_EQ(pairs_of_round(2, 4), (std::vector<std::pair<int, int>>{{0, 1}, {2, 3}}));
  // Five: member r sits out round r (its partner would be the phantom 5).
  EXPECT_EQ(pairs_of_round(0, 5), (std::vector<std::pair<int, int>>{{1, 4}, {2, 3}}));
  EXPECT_EQ(round_partner(0, 0, 5), -1);
  EXPECT_EQ(pairs_of_round(3, 5), (std::vector<std::pair<int, int>>{{0, 1}, {2, 4}}));
  // Eight, round 3: x meets 6 - x (mod 7), and 3 meets 7.
  EXPECT_EQ(pairs_of_round(3, 8), (std::vector<std::pair<int, int>>{{0, 6}, {1, 5}, {2, 4}, {3, 7}}));
  EXPECT_EQ(pair_rounds(1), 0);
  EXPECT_EQ(round_partner(0, 0, 1), -1);
  EXPECT_EQ(round_of_pair(2, 2, 8), -1);
  EXPECT_EQ(round_partner(0, 7, 8), -1);  // no round 7 for 8 members
}

TEST(LinksSchedule, LargeMachinesDoNotOverflow) {
  // 100,000 members (k = 99,999): 99,997 + 99,998 = -3 (mod k), so 2r = -3
  // and r = 49,998 (2 x 49,998 = 99,996 = -3).
  EXPECT_EQ(round_of_pair(99997, 99998, 100000), 49998);
  EXPECT_EQ(round_partner(99997, 49998, 100000), 99998);
  EXPECT_EQ(round_partner(99999, 49998, 100000), 49998);
}

// The plan line counts the rounds: 1 for 2 members, N for N odd.
TEST(LinksSchedule, ThePlanLineCountsRoundsOfPairs) {
  for (const auto& [n, expected] : {std::pair{2, "2 nodes, 1 round of pairs x 5 reps"},
                                    std::pair{5, "5 nodes, 5 rounds of pairs x 5 reps"},
                                    std::pair{6, "6 nodes, 5 rounds of pairs x 5 reps"}}) {
    RankLayout layout;
    layout.size = n;
    layout.n_nodes = n;
    layout.node_of_rank.resize(static_cast<std::size_t>(n));
    std::iota(layout.node_of_rank.begin(), layout.node_of_rank.end(), 0);
    const std::string line = describe_links(plan_links(Config{}, layout));
    EXPECT_NE(line.find(expected), std::string::npos) << line;
  }
}

}  // namespace
}  // namespace bws::links
