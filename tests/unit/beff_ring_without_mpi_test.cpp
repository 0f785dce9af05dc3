// The b_eff ring on the Communicator interface, without MPI: a one-rank
// loopback communicator (each message lands in the receive posted with its
// tag) carries the real exchanges, payload stamps and checks.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "BeffLoopback.hpp"
#include "beff/BeffExchange.hpp"
#include "beff/BeffRingRun.hpp"
#include "beff/BeffRings.hpp"

namespace bws::beff {
namespace {

using testing_support::Delivery;
using testing_support::LoopbackCommunicator;

RingRunSettings settings_of(std::vector<std::uint64_t> sizes_bytes, bool stale) {
  RingRunSettings s;
  s.sizes_bytes = std::move(sizes_bytes);
  s.methods = {ExchangeMethod::Sendrecv, ExchangeMethod::Nonblocking};
  s.reps = 2;
  s.min_time_seconds = 1e-4;
  s.world_rank = 0;
  s.faults.make_received_stale = stale;
  return s;
}

TEST(BeffRingWithoutMpi, EveryMessageArrivesAndPassesItsChecks) {
  LoopbackCommunicator comm;
  const RingBuffers buffers(65536);
  std::uint32_t iteration = 0;
  std::size_t progress_calls = 0;
  const auto sizes = measure_ring(comm, natural_ring(1).order, settings_of({1, 8, 4096, 65536}, false), buffers, iteration,
                                  [&](std::size_t) { ++progress_calls; });
  ASSERT_EQ(sizes.size(), 4u);
  EXPECT_EQ(progress_calls, 4u);
  EXPECT_EQ(sizes[2].message_bytes, 4096u);
  for (const SizeMeasurement& size : sizes) {
    EXPECT_GE(size.looplength, 1u);
    ASSERT_EQ(size.methods.size(), 2u);
    for (const MethodSamples& m : size.methods) {
      EXPECT_EQ(m.reps.size(), 2u);
      EXPECT_TRUE(m.payload.ok()) << m.payload.tally.describe();
      EXPECT_EQ(m.payload.failing_ranks, 0);
      EXPECT_EQ(m.payload.first_failing_rank, -1);
      for (const SampleTimes& t : m.reps) EXPECT_EQ(t.t_min_seconds, t.t_max_seconds);  // one rank
    }
  }
  EXPECT_GT(iteration, 0u);
}

TEST(BeffRingWithoutMpi, AStaleMessageIsCaughtAndItsRankNamed) {
  LoopbackCommunicator comm;
  const RingBuffers buffers(65536);
  std::uint32_t iteration = 0;
  // Stamped sizes (>= 32 bytes): a stale message is named as such, not by chance.
  const auto sizes =
      measure_ring(comm, natural_ring(1).order, settings_of({32, 4096, 65536}, true), buffers, iteration, nullptr);
  ASSERT_EQ(sizes.size(), 3u);
  for (const SizeMeasurement& size : sizes)
    for (const MethodSamples& m : size.methods) {
      EXPECT_GT(m.payload.tally.of(PayloadProblem::Stale), 0u) << size.message_bytes;
      EXPECT_EQ(m.payload.failing_ranks, 1);
      EXPECT_EQ(m.payload.first_failing_rank, 0);
    }
}

// A path that loses or misdelivers messages fails every method at every
// size, short messages included, though nothing is checked inside the timed loop.
TEST(BeffRingWithoutMpi, ALossyOrMisroutingPathFailsEveryMethodAndSize) {
  for (Delivery delivery : {Delivery::Dropped, Delivery::Swapped}) {
    LoopbackCommunicator comm(delivery);
    const RingBuffers buffers(65536);
    std::uint32_t iteration = 0;
    const auto sizes =
        measure_ring(comm, natural_ring(1).order, settings_of({8, 32, 65536}, false), buffers, iteration, nullptr);
    for (const SizeMeasurement& size : sizes)
      for (const MethodSamples& m : size.methods) {
        EXPECT_FALSE(m.payload.ok()) << size.message_bytes;
        EXPECT_EQ(m.payload.first_failing_rank, 0);
      }
  }
}

TEST(BeffRingWithoutMpi, OnlyMembersGetAPairCommunicator) {
  LoopbackCommunicator comm;
  EXPECT_NE(comm.split_members(true), nullptr);
  EXPECT_EQ(comm.split_members(false), nullptr);
  wait_quietly_at_barrier(comm);  // returns: the loopback's barrier completes at once
}

}  // namespace
}  // namespace bws::beff
