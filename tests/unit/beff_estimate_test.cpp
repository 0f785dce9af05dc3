// b_eff's estimate counts the network once the probe has timed it: on a
// 400 Mbit/s link (50 MB/s), an exchange of 1 MiB to each neighbour sends
// 2 MiB, 41.9 ms, which outlasts min-time; memory speed alone said 0.2 ms.
#include <gtest/gtest.h>

#include <cstdint>

#include "beff/BeffEstimate.hpp"
#include "beff/BeffPlan.hpp"

namespace bws::beff {
namespace {

BeffParams one_mebibyte_ring(int ranks) {
  BeffParams p;
  p.sizes_bytes = {1 << 20};
  p.min_time_seconds = 0.001;
  p.reps = 10;
  p.random_rings = 0;
  p.methods = {ExchangeMethod::Sendrecv};
  p.layout.size = ranks;
  return p;
}

MachineSpeed quiet_node() {
  MachineSpeed s;
  s.thread_memory_Bps = 10e9;
  s.first_touch_Bps = 5e9;
  s.rank_exchange_seconds = 20e-6;
  s.rank_barrier_seconds = 10e-6;
  s.exchange_stretch = 1;
  return s;
}

TEST(BeffEstimate, ProbedLinkRateSetsTheLargeExchanges) {
  BeffParams p = one_mebibyte_ring(2);  // 2 ranks: the natural ring only
  const double unprobed = estimate_beff(p, quiet_node()).seconds;
  p.probed_send_Bps = 50e6;
  const TimeEstimate probed = estimate_beff(p, quiet_node());
  // 10 samples and 3 untimed exchanges at >= 2 MiB / 50 MB/s each, at least.
  const double exchange_seconds = 2.0 * (1 << 20) / 50e6;
  EXPECT_GE(probed.seconds, 13 * exchange_seconds);
  EXPECT_LE(probed.seconds, 2 * 15 * exchange_seconds) << "calibration adds about one sample, not more";
  EXPECT_LT(unprobed, probed.seconds / 20);
  EXPECT_NE(probed.terms.find("probed sends of 1.00 MiB x 2: 0.05 GB/s"), std::string::npos) << probed.terms;
}

TEST(BeffEstimate, ARateAboveMemorySpeedChangesNothing) {
  BeffParams p = one_mebibyte_ring(4);
  const double unprobed = estimate_beff(p, quiet_node()).seconds;
  p.probed_send_Bps = 40e9;  // shared memory measured faster than one thread's memcpy
  EXPECT_DOUBLE_EQ(estimate_beff(p, quiet_node()).seconds, unprobed);
}

}  // namespace
}  // namespace bws::beff
