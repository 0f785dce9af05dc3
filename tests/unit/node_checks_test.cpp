// Impossible node figures: ranks whose CPUs overlap take
// turns instead of being summed, and a node figure above the physical
// ceiling is marked invalid; and the memory-configuration flags.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/ResultColumns.hpp"
#include "model/MemoryFlags.hpp"
#include "model/NodeCeiling.hpp"
#include "model/NodeFlags.hpp"
#include "run/RankTurns.hpp"

using namespace bws;

TEST(RankTurns, OverlappingRanksTakeTurnsDisjointOnesRunTogether) {
  // Bound one core each: one turn.
  EXPECT_EQ(run::assign_turns({{0}, {1}, {2}, {3}}), (std::vector<int>{0, 0, 0, 0}));
  // mpirun --bind-to none with one thread per rank: both pinned to CPU 0.
  EXPECT_EQ(run::assign_turns({{0}, {0}}), (std::vector<int>{0, 1}));
  // Three ranks that each see both cores (oversubscribed): three turns.
  EXPECT_EQ(run::assign_turns({{0, 1}, {0, 1}, {0, 1}}), (std::vector<int>{0, 1, 2}));
  // A chain 0-1, 1-2, 2-3: ranks 0 and 2 can run together, 1 after them.
  const std::vector<std::vector<int>> chain = {{0, 1}, {1, 2}, {2, 3}};
  EXPECT_EQ(run::assign_turns(chain), (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(run::widest_turn(chain, run::assign_turns(chain)), 0);  // CPUs 0-3 against 1-2
  EXPECT_EQ(run::describe_overlaps({{0}, {0}}, {4, 5}), std::vector<std::string>{"ranks 4 and 5 share CPU 0"});
  EXPECT_EQ(run::cpu_list_text({3, 0, 1, 2, 8}), "0-3,8");
}

namespace {
Table node_rows(double Bps, std::int64_t bytes) {
  Table t("stream/nodes", {text_column("host", 8), int_column("bytes", "B"), real_column("bandwidth", "B/s"),
                           int_column("valid")});
  t.add_row({{"host", "n1"}, {"bytes", bytes}, {"bandwidth", Bps}, {"valid", 1}});
  return t;
}
}  // namespace

TEST(NodeCeiling, AFigureAboveWhatTheNodeCanMoveIsInvalid) {
  model::NodeCeiling ceiling;
  ceiling.cores = 2;  // 2 x 512 B x 6e9 = 6.144e12 B/s
  std::vector<Table> fine = {node_rows(40e9, 1 << 30)};
  EXPECT_EQ(model::enforce_node_ceiling(fine, "n1", ceiling).rows(), 0u);
  EXPECT_EQ(fine[0].get_int(0, "valid"), 1);
  std::vector<Table> absurd = {node_rows(7e12, 1 << 30)};
  const Table checks = model::enforce_node_ceiling(absurd, "n1", ceiling);
  ASSERT_EQ(checks.rows(), 1u);
  EXPECT_EQ(absurd[0].get_int(0, "valid"), 0);
  EXPECT_EQ(checks.get_int(0, "passed"), 0);
  EXPECT_DOUBLE_EQ(checks.get_double(0, "upper"), 6.144e12);
  // With hwloc's DRAM bandwidth (HMAT), arrays larger than the LLC are held to it (+10 %).
  ceiling.dram_Bps = 100e9;
  ceiling.llc_bytes = 32 << 20;
  std::vector<Table> dram = {node_rows(120e9, 1 << 30)};
  EXPECT_EQ(model::enforce_node_ceiling(dram, "n1", ceiling).rows(), 1u);
  std::vector<Table> cached = {node_rows(120e9, 1 << 20)};  // cache-resident: only the per-core bound
  EXPECT_EQ(model::enforce_node_ceiling(cached, "n1", ceiling).rows(), 0u);
}

TEST(MemoryFlags, FindingsAndChannelCountsAgainstTheCohort) {
  Table nodes("nodes/table", {text_column("host", 8), int_column("memory_channels_populated")});
  for (const char* h : {"a", "b", "c"}) nodes.add_row({{"host", h}, {"memory_channels_populated", 16}});
  nodes.add_row({{"host", "d"}, {"memory_channels_populated", 15}});
  nodes.add_row({{"host", "e"}, {"memory_channels_populated", 0}});  // unknown: not judged
  Table findings("nodes/memory_findings", {text_column("host", 8), text_column("kind", 32), text_column("subject", 64),
                                           text_column("text", 200)});
  findings.add_row({{"host", "b"}, {"kind", "dimm_below_rated"}, {"subject", "CPU0_DIMM_A1"},
                    {"text", "CPU0_DIMM_A1 runs at 4400 MT/s, rated 4800"}});
  const model::NodeCohorts cohorts = {{"a", "x"}, {"b", "x"}, {"c", "x"}, {"d", "x"}, {"e", "x"}};
  const Table flags = model::memory_flags(nodes, findings, cohorts);
  ASSERT_EQ(flags.rows(), 2u);
  EXPECT_EQ(flags.get_string(0, "host"), "b");
  EXPECT_EQ(flags.get_string(0, "metric"), "memory.dimm_below_rated");
  EXPECT_EQ(flags.get_string(0, "status"), "confirmed");
  EXPECT_EQ(flags.get_string(1, "host"), "d");
  EXPECT_EQ(flags.get_string(1, "metric"), "memory.channels");
  EXPECT_DOUBLE_EQ(flags.get_double(1, "value"), 15);
  EXPECT_DOUBLE_EQ(flags.get_double(1, "median"), 16);
  EXPECT_EQ(flags.get_string(1, "rule"), "memory");
}
