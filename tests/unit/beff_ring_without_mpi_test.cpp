// The b_eff ring on the Communicator interface, without MPI: a one-rank
// loopback communicator (each message lands in the receive posted with its
// tag) carries the real exchanges, payload stamps and checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "beff/BeffExchange.hpp"
#include "beff/BeffRingRun.hpp"
#include "beff/BeffRings.hpp"
#include "core/Communicator.hpp"

namespace bws::beff {
namespace {

// One rank: its left and right neighbour are itself; reductions over one
// rank leave the values as they are.
class LoopbackCommunicator final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void barrier() override {}
  void post_send(const std::byte* data, std::uint64_t bytes, int, int tag) override {
    sends_.push_back({const_cast<std::byte*>(data), bytes, tag});
  }
  void post_receive(std::byte* data, std::uint64_t bytes, int, int tag) override {
    receives_.push_back({data, bytes, tag});
  }
  void post_barrier() override {}
  void wait_all() override {
    for (const Posted& r : receives_)
      for (const Posted& s : sends_)
        if (s.tag == r.tag) std::memcpy(r.data, s.data, r.bytes);
    sends_.clear();
    receives_.clear();
  }
  bool test_all() override {
    wait_all();
    return true;
  }
  void send_receive(const std::byte* send, int, std::byte* receive, int, std::uint64_t bytes, int) override {
    std::memcpy(receive, send, bytes);
  }
  void all_reduce(std::span<int>, Reduction) override {}
  void all_reduce(std::span<double>, Reduction) override {}
  void reduce_to_root(std::span<const int> mine, std::span<int> on_root, Reduction) override { copy(mine, on_root); }
  void reduce_to_root(std::span<const double> mine, std::span<double> on_root, Reduction) override {
    copy(mine, on_root);
  }
  void reduce_to_root(std::span<const std::uint64_t> mine, std::span<std::uint64_t> on_root, Reduction) override {
    copy(mine, on_root);
  }
  void broadcast_from_root(std::span<int>) override {}
  void gather_to_root(std::span<const std::byte> mine, std::span<std::byte> on_root) override { copy(mine, on_root); }
  std::unique_ptr<Communicator> split_members(bool member) override {
    return member ? std::make_unique<LoopbackCommunicator>() : nullptr;
  }

 private:
  struct Posted {
    std::byte* data;
    std::uint64_t bytes;
    int tag;
  };
  template <class T>
  static void copy(std::span<const T> from, std::span<T> to) {
    std::copy(from.begin(), from.end(), to.begin());
  }
  std::vector<Posted> sends_, receives_;
};

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

TEST(BeffRingWithoutMpi, OnlyMembersGetAPairCommunicator) {
  LoopbackCommunicator comm;
  EXPECT_NE(comm.split_members(true), nullptr);
  EXPECT_EQ(comm.split_members(false), nullptr);
  wait_quietly_at_barrier(comm);  // returns: the loopback's barrier completes at once
}

}  // namespace
}  // namespace bws::beff
