// STREAM (lib/stream): planning on synthetic machines and the one
// validation rule of both backends (--stream.validate-epsilon).
#include <gtest/gtest.h>

#include "TestSupport.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/Config.hpp"
#include "core/Errors.hpp"
#include "core/ResultColumns.hpp"
#include "core/RunContext.hpp"
#include "stream/StreamBenchmark.hpp"
#include "stream/StreamKernelTable.hpp"
#include "stream/StreamKernels.hpp"
#include "stream/StreamLayout.hpp"
#include "stream/StreamPlan.hpp"
#include "stream/StreamTables.hpp"
#include "stream/StreamValidation.hpp"
#include "topology/PinningPlan.hpp"
#include "topology/Team.hpp"
#include "topology/Topology.hpp"

namespace bws::stream {
namespace {

constexpr std::uint64_t kMiB = 1ull << 20;
constexpr std::uint64_t kGiB = 1ull << 30;

// ---- plan ----

// One package, 2 cores under one 32 MiB L3, 24 GiB: this machine kind.
const char* const kSmallNode = "numa:1(memory=24GiB) pack:1 l3:1(size=32MiB) core:2 pu:1";
// 2 packages, 2 x 8 GiB, a 128 MiB L3 per package, 64 cores.
const char* const kManyCoreNode = "pack:2 numa:1(memory=8GiB) l3:1(size=128MiB) core:32 pu:1";

NodeContext node_of(const topo::Topology& topology, int ranks_on_node = 1, bool quick = false) {
  return NodeContext{topology, "node1", 0, ranks_on_node, 0, 2, quick, MachineSpeed{}, 0};
}

Config config_with(std::map<std::string, std::string> values) {
  Config config;
  for (auto& [k, v] : values) config.set(k, v);
  return config;
}

// --stream.validate-epsilon alone, as the schema reads it.
StreamValidationRule rule_of(const Config& config) { return stream_schema().read(config, false).validation; }

TEST(StreamPlan, AutoSizeIsFourTimesTheLlcAndAtLeastTenMillion) {
  const topo::Topology topology = topo::Topology::synthetic(kSmallNode);
  ASSERT_EQ(topology.info().llc_bytes, 32 * kMiB);
  const StreamParams p = plan_stream(Config(), node_of(topology));
  EXPECT_TRUE(p.elements_auto);
  EXPECT_EQ(p.elements, 4 * 32 * kMiB / sizeof(double));  // 16 Mi elements > 10^7
  EXPECT_GE(p.elements * sizeof(double), 4 * topology.info().llc_bytes);
  EXPECT_GE(p.elements, 10000000u);
  EXPECT_EQ(plan_stream_common(Config(), false).reps, 20);  // one count for every backend and type
  ASSERT_EQ(p.runs.size(), 1u);
  EXPECT_EQ(p.runs[0].type, StreamType::Double);
  if (kHaveNontemporalKernels) {
    EXPECT_EQ(p.runs[0].stores, StoreKind::Nontemporal);  // 384 MiB >> 32 MiB LLC
  }
  EXPECT_GE(p.buffer_bytes, 3 * p.elements * sizeof(double));

  // A small LLC: STREAM's 10^7 is the floor.
  const topo::Topology small_llc = topo::Topology::synthetic("numa:1(memory=24GiB) pack:1 l3:1(size=4MiB) core:2 pu:1");
  EXPECT_EQ(plan_stream(Config(), node_of(small_llc)).elements, 10000000u);

  // Float only: 4 x LLC in floats.
  EXPECT_EQ(plan_stream(config_with({{"stream.type", "float"}}), node_of(topology)).elements, 4 * 32 * kMiB / 4);
  // Both: sized by the largest type, both types use the same element count.
  const StreamParams both = plan_stream(config_with({{"stream.type", "both"}}), node_of(topology));
  EXPECT_EQ(both.elements, 4 * 32 * kMiB / 8);
  ASSERT_EQ(both.runs.size(), 2u);
  EXPECT_EQ(both.runs[0].type, StreamType::Double);
  EXPECT_EQ(both.runs[1].type, StreamType::Float);
  EXPECT_EQ(both.buffer_bytes, both.runs[0].layout.total_bytes);
}

TEST(StreamPlan, AutoSizeIsCappedAtFortyPercentOfNodeMemoryWithManyRanks) {
  const topo::Topology topology = topo::Topology::synthetic(kManyCoreNode);
  const topo::TopologyInfo& info = topology.info();
  ASSERT_EQ(info.node_memory_bytes, 16 * kGiB);
  ASSERT_EQ(info.llc_bytes, 2 * 128 * kMiB);
  // One rank: 4 x 256 MiB / 8 = 128 Mi elements, 3 GiB in all < 40% of 16 GiB.
  EXPECT_EQ(plan_stream(Config(), node_of(topology, 1)).elements, 4 * 256 * kMiB / 8);
  // 64 ranks per node would need 192 GiB: capped.
  const StreamParams p = plan_stream(Config(), node_of(topology, 64));
  const double limit = 0.4 * static_cast<double>(info.node_memory_bytes);
  EXPECT_LE(64.0 * 3 * p.elements * sizeof(double), limit);
  EXPECT_GT(64.0 * 3 * (p.elements + 1) * sizeof(double), limit);
  EXPECT_LT(p.elements, 10000000u);
}

TEST(StreamPlan, ExplicitElementsOptionsAndQuick) {
  const topo::Topology topology = topo::Topology::synthetic(kSmallNode);
  const StreamParams p = plan_stream(config_with({{"stream.elements", "64M"},
                                                  {"stream.type", "float,double"},
                                                  {"stream.reps", "7"},
                                                  {"stream.stores", "normal"},
                                                  {"stream.offset-bytes", "512"}}),
                                     node_of(topology));
  EXPECT_FALSE(p.elements_auto);
  EXPECT_EQ(p.elements, 64 * kMiB);
  EXPECT_EQ(plan_stream_common(config_with({{"stream.reps", "7"}}), false).reps, 7);
  EXPECT_EQ(p.offset_bytes, 512u);
  ASSERT_EQ(p.runs.size(), 2u);
  EXPECT_EQ(p.runs[0].type, StreamType::Float);
  EXPECT_EQ(p.runs[1].type, StreamType::Double);
  for (const StreamTypeRun& r : p.runs) EXPECT_EQ(r.stores, StoreKind::Normal);
  EXPECT_EQ(plan_stream(config_with({{"stream.elements", "1e7"}}), node_of(topology)).elements, 10000000u);

  // Arrays that fit in the LLC keep normal stores under auto.
  const StreamParams in_cache = plan_stream(config_with({{"stream.elements", "4096"}}), node_of(topology));
  EXPECT_EQ(in_cache.runs[0].stores, StoreKind::Normal);

  // --quick shortens the default repetitions, not explicit ones.
  EXPECT_EQ(plan_stream_common(Config(), true).reps, kQuickReps);
  EXPECT_EQ(plan_stream_common(config_with({{"stream.reps", "20"}}), true).reps, 20);

  const std::string d = describe_stream(p);
  EXPECT_NE(d.find("float+double"), std::string::npos) << d;
  EXPECT_NE(d.find("67108864 elements/array"), std::string::npos) << d;
  EXPECT_NE(d.find("MiB/rank"), std::string::npos) << d;
  EXPECT_NE(d.find("normal stores"), std::string::npos) << d;
}

using bws::test::usage_error_of;

TEST(StreamPlan, EveryBadValueIsAUsageErrorNamingTheOption) {
  const topo::Topology topology = topo::Topology::synthetic(kSmallNode);
  const std::vector<std::pair<const char*, std::string>> bad = {
      {"stream.elements", "abc"},   {"stream.elements", "100"}, {"stream.elements", "-5"},
      {"stream.elements", "0"},     {"stream.elements", "4G"},  {"stream.elements", "1.5"},
      {"stream.type", "int"},       {"stream.type", ""},        {"stream.type", "double,"},
      {"stream.reps", "1"},       {"stream.reps", "0"},     {"stream.reps", "abc"},
      {"stream.reps", "1000001"}, {"stream.reps", "2.5"},   {"stream.reps", "99999999999999999999999"},
      {"stream.stores", "fast"},    {"stream.offset-bytes", "100"},   {"stream.offset-bytes", "4096"},
      {"stream.offset-bytes", "-64"},     {"stream.offset-bytes", "abc"},
  };
  for (const auto& [option, value] : bad) {
    // Captured by name: Clang 14 cannot capture a structured binding.
    const std::string message = usage_error_of([&, &bad_option = option, &bad_value = value] {
      plan_stream(config_with({{bad_option, bad_value}}), node_of(topology, 2));
    });
    EXPECT_NE(message.find(std::string("--") + option), std::string::npos) << option << "=" << value << ": " << message;
    EXPECT_NE(message.find("allowed"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  EXPECT_EQ(usage_error_of([&] {
              plan_stream(config_with({{"stream.type", "int"}}), node_of(topology));
            }),
            "--stream.type: unknown type 'int'; allowed: double, float, both (or a comma list such as double,float)");
  EXPECT_EQ(usage_error_of([&] {
              plan_stream(config_with({{"stream.reps", "1"}}), node_of(topology));
            }),
            "--stream.reps: '1' is out of range; allowed: 2..250");
  // Float overflows after 33 repetitions of STREAM's growing values.
  EXPECT_EQ(usage_error_of([&] {
              plan_stream(config_with({{"stream.reps", "40"}, {"stream.type", "both"}}), node_of(topology));
            }),
            "--stream.reps: '40' is out of range; allowed: 2..30");
  // By its old name, the message names what was typed.
  EXPECT_EQ(usage_error_of([&] {
              plan_stream(config_with({{"stream.ntimes", "40"}, {"stream.type", "float"}}), node_of(topology));
            }),
            "--stream.ntimes: '40' is out of range; allowed: 2..30");

  // 4G doubles: 3 x 32 GiB on each of 2 ranks do not fit in 24 GiB.
  const std::string too_big = usage_error_of([&] {
    plan_stream(config_with({{"stream.elements", "4G"}}), node_of(topology, 2));
  });
  EXPECT_NE(too_big.find("--stream.elements 4G: 3 arrays of 32.00 GiB on each of 2 ranks need 192.00 GiB; "
                         "this node has 24.00 GiB"),
            std::string::npos)
      << too_big;
  EXPECT_NE(too_big.find("allowed: 1024.."), std::string::npos) << too_big;
}

TEST(StreamPlan, LargestAllowedElementCountFits) {
  const topo::Topology topology = topo::Topology::synthetic(kSmallNode);
  // Read the maximum from the message and check it plans and its successor does not.
  const std::string message = usage_error_of([&] {
    plan_stream(config_with({{"stream.elements", "4G"}}), node_of(topology, 2));
  });
  const std::size_t from = message.find("1024..") + 6;
  const std::uint64_t max = std::stoull(message.substr(from));
  const StreamParams p = plan_stream(config_with({{"stream.elements", std::to_string(max)}}), node_of(topology, 2));
  EXPECT_LE(2 * p.buffer_bytes, topology.info().node_memory_bytes);
  EXPECT_NE(usage_error_of([&] {
              plan_stream(config_with({{"stream.elements", std::to_string(max + 1000)}}), node_of(topology, 2));
            }),
            "(no UsageError)");
}

// ---- one validation rule for both backends (--stream.validate-epsilon) ----

// After 1 repetition (double): a = 30, b = 6, c = 8. One element of b off by
// d in n = 1000 gives an average relative error of d / 1000 / 6; STREAM
// 5.10's limit 1e-13 is d = 6e-10. Just under: d = 5.4e-10 (0.9e-13); just
// over: d = 6.6e-10 (1.1e-13).
StreamValidation judged_with_b_off_by(double d, const StreamValidationRule& rule) {
  constexpr std::size_t n = 1000;
  std::vector<double> a(n, 30.0), b(n, 6.0), c(n, 8.0);
  b[123] += d;
  const StreamExpected expected = stream_expected_values<double>(1);
  // The sums, then judge_stream_run: what the CPU team job and the OpenCL runner both call.
  return judge_stream_run<double>(sum_stream_errors(a.data(), b.data(), c.data(), 0, n, expected), n, 1, rule);
}

TEST(StreamValidationRule, JustUnderPassesJustOverFailsAndTheOptionMovesTheLimit) {
  const StreamValidationRule stream510 = rule_of(Config());  // default: auto
  EXPECT_EQ(stream510.limit<double>(), 1e-13);
  EXPECT_EQ(stream510.limit<float>(), 1e-6);
  EXPECT_TRUE(judged_with_b_off_by(5.4e-10, stream510).passed());
  EXPECT_FALSE(judged_with_b_off_by(6.6e-10, stream510).passed());
  EXPECT_NEAR(judged_with_b_off_by(6.6e-10, stream510).of(StreamArray::B).avg_rel_error, 1.1e-13, 1e-16);

  // --stream.validate-epsilon 1e-12: the "over" case now passes; 1e-14: the "under" case fails.
  const StreamValidationRule looser = rule_of(config_with({{"stream.validate-epsilon", "1e-12"}}));
  EXPECT_EQ(looser.limit<double>(), 1e-12);
  EXPECT_EQ(looser.limit<float>(), 1e-12);  // one value for both types
  EXPECT_TRUE(judged_with_b_off_by(6.6e-10, looser).passed());
  const StreamValidationRule stricter = rule_of(config_with({{"stream.validate-epsilon", "1e-14"}}));
  EXPECT_FALSE(judged_with_b_off_by(5.4e-10, stricter).passed());
  EXPECT_EQ(judged_with_b_off_by(5.4e-10, stricter).of(StreamArray::B).limit, 1e-14);

  // The CPU plan carries it.
  const topo::Topology topology = topo::Topology::synthetic(kSmallNode);
  EXPECT_EQ(plan_stream(config_with({{"stream.validate-epsilon", "1e-12"}}), node_of(topology)).validation.limit<double>(),
            1e-12);
  EXPECT_EQ(plan_stream(Config(), node_of(topology)).validation.limit<double>(), 1e-13);
}

TEST(StreamValidationRule, BadValuesAreOneLineNamingTheOption) {
  for (const char* bad : {"0", "-1e-13", "1", "2", "tiny", "1e400", "nan"}) {
    const std::string message =
        bws::test::usage_error_of([&] { rule_of(config_with({{"stream.validate-epsilon", bad}})); });
    EXPECT_NE(message.find("--stream.validate-epsilon"), std::string::npos) << bad << ": " << message;
    EXPECT_NE(message.find("> 0 and < 1"), std::string::npos) << bad << ": " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << bad;
  }
}

}  // namespace
}  // namespace bws::stream
