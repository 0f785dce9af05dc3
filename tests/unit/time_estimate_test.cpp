// Run times known before they start (core/TimeEstimate.hpp): pmbw's model
// and its fitting into --time-budget on a modelled 2-socket, 64-core node,
// the refusal of a plan whose options leave nothing to shrink, STREAM's
// fitting, and the machine probe's figures. No clock is asserted on.
#include <gtest/gtest.h>

#include "TestSupport.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/TimeEstimate.hpp"
#include "pmbw/PmbwEstimate.hpp"
#include "pmbw/PmbwPlan.hpp"
#include "pmbw/PmbwSizes.hpp"
#include "run/MachineProbe.hpp"
#include "stream/StreamBenchmark.hpp"
#include "topology/Topology.hpp"

namespace bws {
namespace {

using test::config_with;
using test::expect_one_line_with;
using test::usage_error_of;

constexpr std::uint64_t kKiB = 1024, kMiB = 1024 * kKiB, kGiB = 1024 * kMiB;

// Two sockets of 32 cores (4 L3 of 32 MiB each, 8 cores per L3), 256 GiB.
const char* const k64CoreNode =
    "pack:2 numa:1(memory=128GiB) l3:4(size=32MiB) l2:8(size=1MiB) l1d:1(size=48KiB) core:1 pu:1";

// Such a node's speed, as its probe would see it: 64 threads stream ~300 GB/s, one thread ~15 GB/s, a random
// load ~110 ns.
MachineSpeed modelled_64_core_speed() {
  MachineSpeed s;
  s.memory_Bps = 300e9;
  s.thread_memory_Bps = 15e9;
  s.first_touch_Bps = 20e9;
  s.random_access_seconds = 110e-9;
  s.thread_sync_seconds = 1e-6;
  s.rank_barrier_seconds = 5e-6;
  return s;
}

TEST(TimeEstimate, PmbwDefaultsFitTheDefaultBudgetOnA2Socket64CoreNode) {
  const topo::Topology t = topo::Topology::synthetic(k64CoreNode);
  ASSERT_EQ(t.info().cores, 64);
  const MachineSpeed speed = modelled_64_core_speed();
  const NodeContext unbounded{t, "n1", 0, 1, 0, 64, false, speed, 0};
  const NodeContext bounded{t, "n1", 0, 1, 0, 64, false, speed, kDefaultTimeBudgetSeconds};

  // Without a budget: pmbw's own defaults. Every point's samples last at least min-time (1 s), so the
  // run lasts at least routines x 64 thread counts x sizes x 3 samples x 1 s: days.
  const pmbw::PmbwParams whole = pmbw::plan_pmbw(config_with({}), unbounded);
  ASSERT_EQ(whole.thread_counts.size(), 64u);
  ASSERT_EQ(whole.sizes.size(), pmbw::pmbw_size_table(kGiB).size());
  const double floor_seconds =
      static_cast<double>(whole.routines.size() * 64 * whole.sizes.size()) * 3 * 1.0;
  const double whole_seconds = pmbw::estimate_pmbw(whole, speed).seconds;
  EXPECT_GE(whole_seconds, floor_seconds);
  EXPECT_GT(whole_seconds, 24 * 3600.0) << "pmbw's defaults at 64 threads per rank";
  EXPECT_TRUE(whole.fitted.empty());

  // With the default budget: the plan is fitted and its estimate is within it.
  const pmbw::PmbwParams fitted = pmbw::plan_pmbw(config_with({}), bounded);
  const TimeEstimate e = pmbw::estimate_pmbw(fitted, speed);
  EXPECT_LE(e.seconds, kDefaultTimeBudgetSeconds) << e.terms;
  EXPECT_FALSE(fitted.fitted.empty());
  // What stays: every routine, 1 and 64 threads, the smallest size and one beyond 4x the LLC (memory).
  EXPECT_EQ(fitted.routines.size(), whole.routines.size());
  EXPECT_EQ(fitted.thread_counts.front(), 1);
  EXPECT_EQ(fitted.thread_counts.back(), 64);
  EXPECT_EQ(fitted.sizes.front(), 1 * kKiB);
  EXPECT_GE(fitted.sizes.back(), 4 * t.info().llc_bytes);
  EXPECT_GE(fitted.sizes.size(), pmbw::kFitSizesLastFloor);
  EXPECT_GE(fitted.min_time_seconds, pmbw::kFitMinTimeFloorSeconds);
  // The buffer follows the smaller plan.
  EXPECT_LT(fitted.buffer_bytes, whole.buffer_bytes);
  EXPECT_NE(pmbw::describe_pmbw(fitted).find("fitted to --time-budget"), std::string::npos);
}

TEST(TimeEstimate, PmbwSamplesAddTheirMinimumTimes) {
  // Where min-time rules (areas in the caches), each extra sample of each point adds 1.5 x min-time (pmbw
  // aims at 1.5 x the minimum): 2 routines x 2 thread counts x 3 sizes = 12 points, 3 more samples each.
  const topo::Topology t = topo::Topology::synthetic(k64CoreNode);
  const NodeContext node{t, "n1", 0, 1, 0, 2, false, MachineSpeed{}, 0};
  auto seconds = [&](const char* reps) {
    return pmbw::estimate_pmbw(
               pmbw::plan_pmbw(config_with({{"pmbw.routines", "ScanRead64PtrUnrollLoop,PermRead64UnrollLoop"},
                                            {"pmbw.min-bytes", "16K"},
                                            {"pmbw.max-bytes", "32K"},
                                            {"pmbw.min-time", "0.1"},
                                            {"pmbw.reps", reps}}),
                               node),
               MachineSpeed{})
        .seconds;
  };
  // 16K, 20K, 24K, 28K, 32K: 5 sizes of pmbw's table.
  const double points = 2 * 2 * 5;
  EXPECT_NEAR(seconds("6") - seconds("3"), points * 3 * 1.5 * 0.1, points * 3 * 0.01);
}

TEST(TimeEstimate, PmbwFixedByTheUserIsRefusedWithTheBudgetThatFits) {
  const topo::Topology t = topo::Topology::synthetic(k64CoreNode);
  const NodeContext bounded{t, "n1", 0, 1, 0, 64, false, modelled_64_core_speed(), kDefaultTimeBudgetSeconds};
  const std::string message = usage_error_of([&] {
    pmbw::plan_pmbw(config_with({{"pmbw.threads", "1..64"},
                                 {"pmbw.min-bytes", "1K"},
                                 {"pmbw.max-bytes", "64M"},
                                 {"pmbw.min-time", "1"},
                                 {"pmbw.reps", "3"}}),
                    bounded);
  });
  expect_one_line_with(message, "--time-budget 300 s: pmbw's plan is estimated at ");
  expect_one_line_with(message, "allowed: --time-budget ");
  // The budget named fits: at least every sample's minimum time.
  const std::size_t at = message.find("allowed: --time-budget ") + std::string("allowed: --time-budget ").size();
  const double named = std::stod(message.substr(at));
  const pmbw::PmbwParams p = pmbw::plan_pmbw(config_with({{"pmbw.max-bytes", "64M"}}),
                                             NodeContext{t, "n1", 0, 1, 0, 64, false, MachineSpeed{}, 0});
  EXPECT_GE(named, static_cast<double>(p.routines.size() * 64 * p.sizes.size()) * 3 * 1.0);
}

TEST(TimeEstimate, LogEvenSizesKeepTheEndsAndSpreadEvenly) {
  const std::vector<std::uint64_t> table = pmbw::pmbw_size_table(kGiB);
  const std::vector<std::uint64_t> twelve = pmbw::log_even_sizes(table, 12);
  ASSERT_EQ(twelve.size(), 12u);
  EXPECT_EQ(twelve.front(), 1 * kKiB);
  EXPECT_EQ(twelve.back(), kGiB);
  // An even step on a log scale is (2^20)^(1/11) ~ 3.5x; pmbw's table holds a size within ~1.5x of any target.
  const double step = std::pow(static_cast<double>(kGiB / kKiB), 1.0 / 11);
  for (std::size_t i = 1; i < twelve.size(); ++i) {
    const double ratio = static_cast<double>(twelve[i]) / static_cast<double>(twelve[i - 1]);
    EXPECT_GT(ratio, step / 2.5) << i;
    EXPECT_LT(ratio, step * 2.5) << i;
  }
  EXPECT_EQ(pmbw::log_even_sizes(table, 100), table);
}

TEST(TimeEstimate, StreamFewerRepsFitTheBudgetUnlessRepsAreGiven) {
  const topo::Topology t = topo::Topology::synthetic("numa:1(memory=24GiB) pack:1 l3:1(size=1MiB) core:2 pu:1");
  MachineSpeed slow;
  slow.memory_Bps = 1e9;
  slow.first_touch_Bps = 1e9;
  // 1M doubles: each repetition moves 10 x 8 MiB = 84 MB, 84 ms at 1 GB/s; 20 repetitions ~1.7 s, 10 ~0.84 s.
  const NodeContext node{t, "n1", 0, 1, 0, 2, false, slow, 1.0};
  const auto benchmark = stream::make_stream_benchmark();
  const auto planned = benchmark->plan(config_with({{"stream.elements", "1M"}}), node);
  const TimeEstimate e = planned->estimate();
  EXPECT_LE(e.seconds, 1.0) << e.terms;
  EXPECT_NE(e.terms.find("fitted to --time-budget: reps 20 -> "), std::string::npos) << e.terms;

  const std::string message =
      usage_error_of([&] { benchmark->plan(config_with({{"stream.elements", "1M"}, {"stream.reps", "20"}}), node); });
  expect_one_line_with(message, "--time-budget 1 s: stream's plan is estimated at ");
  // The advice fits with kAdviceHeadroom (1.25) to spare: 1.8 s x 1.25 rounds up to 3 s; 8 repetitions
  // take ~0.76 s <= 1 s / 1.25 (9: 0.85 s), and 20 of 256K elements ~0.45 s (512K: 0.87 s)
  // (tests/unit/budget_advice_test.cpp runs each suggestion).
  expect_one_line_with(message, "allowed: --time-budget 3 or more, or --stream.reps 8 or --stream.elements 262144");
}

TEST(TimeEstimate, TheProbeGivesEveryFigure) {
  const MachineSpeed s = run::probe_machine(2, 1 * kMiB, 256 * kMiB);
  EXPECT_TRUE(s.probed);
  for (double v : {s.memory_Bps, s.thread_memory_Bps, s.first_touch_Bps, s.random_access_seconds,
                   s.thread_sync_seconds, s.timer_resolution_seconds})
    EXPECT_TRUE(std::isfinite(v) && v > 0) << v;
  EXPECT_GE(s.memory_Bps, s.thread_memory_Bps);
}

TEST(TimeEstimate, DurationsForPeople) {
  EXPECT_EQ(duration_text(0.123), "0.12 s");
  EXPECT_EQ(duration_text(42), "42 s");
  EXPECT_EQ(duration_text(1800), "30.0 min");
  EXPECT_EQ(duration_text(65 * 3600), "65.0 h");
  EXPECT_EQ(budget_that_fits(1234.2), 1543);  // 1234.2 x 1.25 = 1542.75
  EXPECT_EQ(budget_that_fits(0.1), 1);
}

}  // namespace
}  // namespace bws
