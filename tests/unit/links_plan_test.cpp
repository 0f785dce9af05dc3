// The link map's pure parts: who takes part, the plan that fits
// --links.max-time (expected values worked out by hand from the model:
// 1 GB/s, 20 us per window, 50 latency messages of 20.008 us, each way in
// turn, 3 rounds of pairs for 3 members), the options' errors and the
// slow-pair hook's text. The schedule: links_schedule_test.cpp.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <utility>

#include "TestSupport.hpp"
#include "links/LinksPlan.hpp"

namespace bws::links {
namespace {

RankLayout layout_of(std::vector<int> node_of_rank, bool quick = false) {
  RankLayout l;
  l.size = static_cast<int>(node_of_rank.size());
  l.n_nodes = static_cast<int>(std::set<int>(node_of_rank.begin(), node_of_rank.end()).size());
  l.node_of_rank = std::move(node_of_rank);
  l.node_memory_bytes = std::uint64_t{64} << 30;
  l.host = "testhost";
  l.quick = quick;
  l.time_budget_seconds = 300;  // bwsurvey's default --time-budget
  return l;
}

LinksPlan plan_with(std::initializer_list<std::pair<const char*, const char*>> options, const RankLayout& layout) {
  Config config;
  for (const auto& [key, value] : options) config.set(key, value);
  return plan_links(config, layout);
}

std::string plan_error(std::initializer_list<std::pair<const char*, const char*>> options, const RankLayout& layout) {
  const std::string message = test::usage_error_of([&] { plan_with(options, layout); });
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  return message;
}

TEST(LinksPlan, MembersAreEachNodesLowestRankOrEveryRankOnOneNode) {
  EXPECT_EQ(member_ranks({0, 0, 1, 1, 2}), (std::vector<int>{0, 2, 4}));
  EXPECT_EQ(member_ranks({0, 1, 0, 1}), (std::vector<int>{0, 1}));
  EXPECT_EQ(member_ranks({1, 0, 1, 2, 0}), (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(member_ranks({0, 0, 0}), (std::vector<int>{0, 1, 2}));
  const LinksPlan p = plan_with({}, layout_of({0, 0, 1, 1, 2, 2}));
  EXPECT_EQ(p.member_ranks, (std::vector<int>{0, 2, 4}));
  EXPECT_FALSE(p.every_rank);
  EXPECT_TRUE(plan_with({}, layout_of({0, 0, 0})).every_rank);
}

TEST(LinksPlan, DefaultsAndQuick) {
  const LinksPlan p = plan_with({}, layout_of({0, 1, 2}));
  EXPECT_EQ(p.bytes, 1048576u);
  EXPECT_EQ(p.reps, 5);
  EXPECT_EQ(p.window, 8);
  EXPECT_TRUE(p.latency);
  EXPECT_DOUBLE_EQ(p.budget_seconds, 300);  // --time-budget, as every test
  EXPECT_EQ(p.budget_flag, "--time-budget");
  EXPECT_TRUE(p.chosen.empty());
  // 3 rounds x 2 ways x (6 windows of 8 MiB / 1e9 + 20 us, + 50 x 20.008 us) = 6 x (0.050451648 + 0.0010004)
  EXPECT_NEAR(p.estimate_seconds, 0.308712288, 1e-12);
  const std::string line = describe_links(p);
  EXPECT_NE(line.find("3 nodes, 3 rounds of pairs x 5 reps x window 8"), std::string::npos) << line;
  EXPECT_NE(line.find("estimate 0.309 s (limit --time-budget 300 s)"), std::string::npos) << line;
  const LinksPlan q = plan_with({}, layout_of({0, 1, 2}, true));
  EXPECT_EQ(q.bytes, 65536u);
  EXPECT_EQ(q.reps, 5);
  EXPECT_EQ(q.window, 4);
}

TEST(LinksPlan, TimeBudgetLowersRepsFirstThenHalvesTheSize) {
  RankLayout three = layout_of({0, 1, 2});
  three.time_budget_seconds = 0.18;
  // no latency: 3 rounds x 2 ways x (1 + reps) x 0.008408608 s
  const LinksPlan fewer = plan_with({{"links.latency", "off"}}, three);
  EXPECT_EQ(fewer.reps, 2);  // 3 windows: 0.1513549 s; 4 would be 0.2018066 s
  EXPECT_EQ(fewer.bytes, 1048576u);
  EXPECT_NEAR(fewer.estimate_seconds, 0.151354944, 1e-12);
  EXPECT_NE(describe_links(fewer).find("to fit it: reps 5 -> 2"), std::string::npos) << describe_links(fewer);
  EXPECT_EQ(fewer.chosen_options.at("links.reps"), "2");  // what the stored /config records
  // Given repetitions stay: only the size is lowered, 6 x 6 x (8 x 512 KiB / 1e9 + 20 us) = 0.1517149 s.
  const LinksPlan kept = plan_with({{"links.latency", "off"}, {"links.reps", "5"}}, three);
  EXPECT_EQ(kept.reps, 5);
  EXPECT_EQ(kept.bytes, 524288u);
  EXPECT_EQ(kept.chosen, "bytes 1048576 -> 524288");
  // 1 rep of 1 MiB: 0.1009 s; of 512 KiB: 12 x (0.004194304 + 20e-6) = 0.050571648 s
  three.time_budget_seconds = 0.06;
  const LinksPlan smaller = plan_with({{"links.latency", "off"}}, three);
  EXPECT_EQ(smaller.reps, 1);
  EXPECT_EQ(smaller.bytes, 524288u);
  EXPECT_NEAR(smaller.estimate_seconds, 0.050571648, 1e-12);
  EXPECT_NE(describe_links(smaller).find("bytes 1048576 -> 524288"), std::string::npos);
  // 4 KiB, 1 rep: 12 x (32768 / 1e9 + 20e-6) = 0.000633216 s > 0.0003 s
  three.time_budget_seconds = 0.0003;
  const std::string error = plan_error({{"links.latency", "off"}}, three);
  EXPECT_NE(error.find("--time-budget 0.0003 s"), std::string::npos) << error;
  EXPECT_NE(error.find("0.000633"), std::string::npos) << error;
}

// The old --links.max-time still works, as a tighter budget for links alone,
// and the plan line says it is deprecated.
TEST(LinksPlan, MaxTimeIsADeprecatedTighterBudget) {
  const RankLayout three = layout_of({0, 1, 2});  // --time-budget 300
  const LinksPlan fewer = plan_with({{"links.latency", "off"}, {"links.max-time", "0.18"}}, three);
  EXPECT_EQ(fewer.reps, 2);
  EXPECT_EQ(fewer.budget_flag, "--links.max-time");
  const std::string line = describe_links(fewer);
  EXPECT_NE(line.find("(limit --links.max-time 0.18 s)"), std::string::npos) << line;
  EXPECT_NE(line.find("--links.max-time is deprecated: use --time-budget"), std::string::npos) << line;
  // Looser than --time-budget: --time-budget is the limit.
  const LinksPlan loose = plan_with({{"links.max-time", "1000"}}, three);
  EXPECT_EQ(loose.budget_flag, "--time-budget");
  const std::string error = plan_error({{"links.latency", "off"}, {"links.max-time", "0.0001"}}, three);
  EXPECT_NE(error.find("--links.max-time 0.0001 s"), std::string::npos) << error;
}

TEST(LinksPlan, BadValuesNameTheOptionAndTheRange) {
  const RankLayout three = layout_of({0, 1, 2});
  for (auto [key, value] : {std::pair{"links.window", "0"}, {"links.window", "257"}, {"links.reps", "0"},
                            {"links.bytes", "4"}, {"links.max-time", "0"}, {"links.latency", "maybe"}}) {
    const std::string error = plan_error({{key, value}}, three);
    EXPECT_NE(error.find(std::string("--") + key), std::string::npos) << error;
    EXPECT_NE(error.find("allowed"), std::string::npos) << error;
  }
  EXPECT_NE(plan_error({}, layout_of({0})).find("at least 2 nodes"), std::string::npos);
  RankLayout small = three;
  small.node_memory_bytes = std::uint64_t{64} << 20;  // 40% over 9 buffers: 2982616 B
  const std::string memory = plan_error({{"links.bytes", "4M"}}, small);
  EXPECT_NE(memory.find("--links.bytes"), std::string::npos) << memory;
  EXPECT_NE(memory.find("8..2982616 bytes"), std::string::npos) << memory;
}

TEST(LinksPlan, TopologyMustBeAReadableTopologyConf) {
  const RankLayout three = layout_of({0, 1, 2});
  const std::string missing = plan_error({{"links.topology", "/nonexistent/topology.conf"}}, three);
  EXPECT_NE(missing.find("--links.topology"), std::string::npos) << missing;
  const std::string path = ::testing::TempDir() + "links_topology.conf";
  std::ofstream(path) << "SwitchName=s1 Nodes=n[1-2]\nSwitchName=s2 Nodes=n[3-4]\nSwitchName=top Switches=s[1-2]\n";
  EXPECT_EQ(plan_with({{"links.topology", path.c_str()}}, three).topology, path);
}

TEST(LinksPlan, SlowPairHookText) {
  const SlowPair s = parse_slow_pair("1,3,20", 5);
  EXPECT_EQ(s.from, 1);
  EXPECT_EQ(s.to, 3);
  EXPECT_DOUBLE_EQ(s.factor, 20);
  EXPECT_TRUE(s.slows(1, 3));
  EXPECT_FALSE(s.slows(3, 1));
  EXPECT_FALSE(s.slows(1, 2));
  // Every pair between two blocks, as a slow uplink between two leaves.
  const SlowPair blocks = parse_slow_pair("0-1,2-3,8", 4);
  for (int from = 0; from < 4; ++from)
    for (int to = 0; to < 4; ++to)
      EXPECT_EQ(blocks.slows(from, to), from <= 1 && to >= 2) << from << "->" << to;
  // Overlapping blocks slow every pair but a member's own.
  const SlowPair all = parse_slow_pair("0-2,0-2,2", 3);
  EXPECT_TRUE(all.slows(0, 2));
  EXPECT_FALSE(all.slows(1, 1));
  for (const char* bad : {"1,1,2", "5,1,2", "1,2,0.5", "1,2", "a,b,c", "1,2,2000", "2-1,3,2", "0-5,1,2", "0-,1,2",
                          "-1,2,2"}) {
    const std::string error = test::usage_error_of([&] { parse_slow_pair(bad, 5); });
    EXPECT_NE(error.find(kSlowPairEnvironment), std::string::npos) << bad << ": " << error;
    EXPECT_NE(error.find("0..4"), std::string::npos) << error;
  }
}

}  // namespace
}  // namespace bws::links
