// core/BatchedGather: the batch plan (pure), then the gather itself on
// threads (tests/unit/ThreadCommunicator.hpp): payloads of every size reach
// rank 0 whole and in rank order, rank 0 never has more than one batch of
// receives posted, pieces are reassembled, and a consumer that throws on
// rank 0 still lets every rank return. Many ranks over MPI:
// tests/mpi/row_gather_scaling and the mpi_* runs that gather records.
#include <algorithm>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "ThreadCommunicator.hpp"
#include "core/BatchedGather.hpp"
#include "core/MatrixSink.hpp"
#include "core/RowGather.hpp"

using namespace bws;
using bws::testing_support::ThreadCommunicator;
using bws::testing_support::ThreadFabric;

namespace {

// A ThreadCommunicator that remembers the most receive bytes and
// receives posted between two waits (what rank 0 has in flight).
class CountingCommunicator final : public Communicator {
 public:
  explicit CountingCommunicator(ThreadCommunicator& inner) : inner_(inner) {}
  std::uint64_t most_bytes_posted = 0, most_receives_posted = 0;
  int rank() const override { return inner_.rank(); }
  int size() const override { return inner_.size(); }
  void barrier() override { inner_.barrier(); }
  void post_send(const std::byte* d, std::uint64_t b, int to, int tag) override { inner_.post_send(d, b, to, tag); }
  void post_receive(std::byte* d, std::uint64_t b, int from, int tag) override {
    bytes_ += b;
    ++receives_;
    most_bytes_posted = std::max(most_bytes_posted, bytes_);
    most_receives_posted = std::max(most_receives_posted, receives_);
    inner_.post_receive(d, b, from, tag);
  }
  void post_barrier() override { inner_.post_barrier(); }
  void wait_all() override {
    bytes_ = receives_ = 0;
    inner_.wait_all();
  }
  void wait_sends() override { inner_.wait_sends(); }
  bool test_all() override { return inner_.test_all(); }
  void send_receive(const std::byte* s, int to, std::byte* r, int from, std::uint64_t b, int tag) override {
    inner_.send_receive(s, to, r, from, b, tag);
  }
  void all_reduce(std::span<int> v, Reduction op) override { inner_.all_reduce(v, op); }
  void all_reduce(std::span<double> v, Reduction op) override { inner_.all_reduce(v, op); }
  void reduce_to_root(std::span<const int> m, std::span<int> r, Reduction op) override {
    inner_.reduce_to_root(m, r, op);
  }
  void reduce_to_root(std::span<const double> m, std::span<double> r, Reduction op) override {
    inner_.reduce_to_root(m, r, op);
  }
  void reduce_to_root(std::span<const std::uint64_t> m, std::span<std::uint64_t> r, Reduction op) override {
    inner_.reduce_to_root(m, r, op);
  }
  void broadcast_from_root(std::span<int> v) override { inner_.broadcast_from_root(v); }
  void gather_to_root(std::span<const std::byte> m, std::span<std::byte> r) override { inner_.gather_to_root(m, r); }
  std::unique_ptr<Communicator> split_members(bool member) override { return inner_.split_members(member); }

 private:
  ThreadCommunicator& inner_;
  std::uint64_t bytes_ = 0, receives_ = 0;
};

// Runs body(comm) on `ranks` threads; what each rank threw (null: it returned).
template <class Body>
std::vector<std::exception_ptr> on_threads(int ranks, Body body) {
  auto fabric = std::make_shared<ThreadFabric>(ranks);
  std::vector<std::exception_ptr> thrown(static_cast<std::size_t>(ranks));
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r)
    threads.emplace_back([&, r] {
      ThreadCommunicator inner(fabric, r);
      CountingCommunicator comm(inner);
      try {
        body(comm);
      } catch (...) {
        thrown[static_cast<std::size_t>(r)] = std::current_exception();
      }
    });
  for (auto& t : threads) t.join();
  return thrown;
}

// Rank r's payload: `bytes` bytes, byte i is (r * 31 + i) mod 256.
std::vector<std::byte> payload_of(int rank, std::size_t bytes) {
  std::vector<std::byte> p(bytes);
  for (std::size_t i = 0; i < bytes; ++i) p[i] = static_cast<std::byte>((rank * 31 + static_cast<int>(i)) % 256);
  return p;
}

std::string what_of(const std::exception_ptr& e) {
  if (!e) return "(returned)";
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "(not a std::exception)";
  }
}

}  // namespace

TEST(GatherBatches, BoundedBytesInFlightAndEveryRankOnce) {
  const std::vector<std::uint64_t> sizes = {5, 10, 10, 10, 100, 1, 1, 1};
  const auto batches = plan_gather_batches(sizes, 25);
  // rank 0 is never in a batch; 1+2 (20), 3 (10; 30 would exceed), 4 alone (over the limit), 5..7
  const std::vector<std::pair<int, int>> expected = {{1, 3}, {3, 4}, {4, 5}, {5, 8}};
  EXPECT_EQ(batches, expected);
  EXPECT_TRUE(plan_gather_batches({7}, 25).empty());
  // 10,000 ranks of 1 MB with 64 MB in flight: 64 ranks per batch.
  const auto many = plan_gather_batches(std::vector<std::uint64_t>(10000, 1u << 20), 64u << 20);
  EXPECT_EQ(many.front(), std::make_pair(1, 65));
  int covered = 0;
  for (auto [a, b] : many) covered += b - a;
  EXPECT_EQ(covered, 9999);
  // Empty payloads cost nothing in flight: they join the batch they follow.
  const std::vector<std::pair<int, int>> with_empty = {{1, 4}, {4, 6}};
  EXPECT_EQ(plan_gather_batches({0, 6, 0, 0, 6, 0}, 6), with_empty);
}

TEST(BatchedGather, PayloadsOfEverySizeReachRankZeroWholeAndInRankOrder) {
  const std::vector<std::size_t> sizes = {4, 0, 9, 3, 0, 0, 12, 1};
  std::vector<int> ranks_seen;
  std::vector<std::vector<std::byte>> got;
  std::uint64_t root_most_bytes = 0;
  const int n = static_cast<int>(sizes.size());
  const auto thrown = on_threads(n, [&](CountingCommunicator& comm) {
    const auto mine = payload_of(comm.rank(), sizes[static_cast<std::size_t>(comm.rank())]);
    gather_in_batches(comm, mine, 10, [&](int rank, std::span<const std::byte> bytes) {
      ASSERT_EQ(comm.rank(), 0) << "a consumer was called off rank 0";
      ranks_seen.push_back(rank);
      got.emplace_back(bytes.begin(), bytes.end());
    });
    if (comm.rank() == 0) root_most_bytes = comm.most_bytes_posted;
  });
  for (const auto& e : thrown) EXPECT_FALSE(e) << what_of(e);
  ASSERT_EQ(ranks_seen, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  for (std::size_t r = 0; r < sizes.size(); ++r) EXPECT_EQ(got[r], payload_of(static_cast<int>(r), sizes[r])) << r;
  // Batches {1, 2} (9 B), {3, 4, 5} (3 B), {6} (12 B, alone: over the bound), {7} (1 B):
  // the most receive bytes posted at once is the lone 12 B payload.
  EXPECT_EQ(root_most_bytes, 12u);
}

// At scale (the MPI test, mpi_row_gather_128_ranks, is bounded by what 2
// cores start): 512 ranks of 1 to 40 bytes each under a 100-byte bound.
// Every payload arrives whole and in rank order, and rank 0 never has
// more than the bound posted at once, nor a batch that exceeds it.
TEST(BatchedGather, FiveHundredTwelveRanksOfTinyPayloadsStayUnderTheBound) {
  constexpr int kRanks = 512;
  constexpr std::uint64_t kBound = 100;
  const auto size_of = [](int rank) { return static_cast<std::size_t>(1 + (rank * 7) % 40); };
  std::vector<int> ranks_seen;
  bool all_whole = true;
  std::uint64_t root_most_bytes = 0, batches = 0;
  const auto thrown = on_threads(kRanks, [&](CountingCommunicator& comm) {
    const auto mine = payload_of(comm.rank(), size_of(comm.rank()));
    gather_batches(comm, mine, kBound, [&](const GatheredBatch& batch) {
      ++batches;
      std::uint64_t at = 0;
      for (std::size_t i = 0; i < batch.sizes.size(); ++i) {
        const int rank = batch.first_rank + static_cast<int>(i);
        ranks_seen.push_back(rank);
        const std::vector<std::byte> got(batch.bytes.begin() + static_cast<std::ptrdiff_t>(at),
                                         batch.bytes.begin() + static_cast<std::ptrdiff_t>(at + batch.sizes[i]));
        all_whole = all_whole && got == payload_of(rank, size_of(rank));
        at += batch.sizes[i];
      }
    });
    if (comm.rank() == 0) root_most_bytes = comm.most_bytes_posted;
  });
  for (const auto& e : thrown) EXPECT_FALSE(e) << what_of(e);
  std::vector<int> every_rank(kRanks);
  for (int r = 0; r < kRanks; ++r) every_rank[static_cast<std::size_t>(r)] = r;
  EXPECT_EQ(ranks_seen, every_rank);
  EXPECT_TRUE(all_whole);
  EXPECT_LE(root_most_bytes, kBound);
  // 511 payloads of 20.5 B on average, at most 100 B a batch: well over 100 batches.
  EXPECT_GT(batches, 100u);
}

TEST(BatchedGather, BoundBelowOnePayloadMovesOnePayloadAtATime) {
  std::vector<std::pair<int, std::size_t>> batches;  // first rank, ranks in it
  std::uint64_t root_most_receives = 0;
  const auto thrown = on_threads(4, [&](CountingCommunicator& comm) {
    const auto mine = payload_of(comm.rank(), 10);
    gather_batches(comm, mine, 3, [&](const GatheredBatch& batch) {
      batches.emplace_back(batch.first_rank, batch.sizes.size());
      EXPECT_EQ(std::vector<std::byte>(batch.bytes.begin(), batch.bytes.end()), payload_of(batch.first_rank, 10));
    });
    if (comm.rank() == 0) root_most_receives = comm.most_receives_posted;
  });
  for (const auto& e : thrown) EXPECT_FALSE(e) << what_of(e);
  const std::vector<std::pair<int, std::size_t>> expected = {{0, 1}, {1, 1}, {2, 1}, {3, 1}};
  EXPECT_EQ(batches, expected);
  EXPECT_EQ(root_most_receives, 1u);
}

TEST(BatchedGather, PayloadsLargerThanAPieceArriveInPiecesAndWhole) {
  std::vector<std::vector<std::byte>> got;
  std::uint64_t root_most_receives = 0;
  const auto thrown = on_threads(3, [&](CountingCommunicator& comm) {
    const auto mine = payload_of(comm.rank(), 10 + static_cast<std::size_t>(comm.rank()));
    gather_in_batches(
        comm, mine, 1000, [&](int, std::span<const std::byte> bytes) { got.emplace_back(bytes.begin(), bytes.end()); },
        4);
    if (comm.rank() == 0) root_most_receives = comm.most_receives_posted;
  });
  for (const auto& e : thrown) EXPECT_FALSE(e) << what_of(e);
  ASSERT_EQ(got.size(), 3u);
  for (std::size_t r = 0; r < 3; ++r) EXPECT_EQ(got[r], payload_of(static_cast<int>(r), 10 + r));
  // Ranks 1 and 2 in one batch: 11 B in 3 pieces of <= 4 B, 12 B in 3.
  EXPECT_EQ(root_most_receives, 6u);
}

TEST(BatchedGather, ConsumerFailureOnRankZeroDrainsEveryRankThenIsRethrown) {
  std::vector<int> consumed;
  std::vector<std::vector<std::byte>> second_gather;
  const int n = 5;
  const auto thrown = on_threads(n, [&](CountingCommunicator& comm) {
    const auto mine = payload_of(comm.rank(), 8);
    try {
      gather_in_batches(comm, mine, 8, [&](int rank, std::span<const std::byte>) {
        consumed.push_back(rank);
        if (rank == 1) throw std::runtime_error("disk full at rank 1");
      });
    } catch (...) {
      // Every rank was drained: a second gather on the same ranks is clean.
      gather_in_batches(comm, payload_of(comm.rank() + 100, 5), 8, [&](int, std::span<const std::byte> bytes) {
        second_gather.emplace_back(bytes.begin(), bytes.end());
      });
      throw;
    }
    gather_in_batches(comm, payload_of(comm.rank() + 100, 5), 8, [&](int, std::span<const std::byte>) {});
  });
  ASSERT_TRUE(thrown[0]);
  EXPECT_EQ(what_of(thrown[0]), "disk full at rank 1");
  for (std::size_t r = 1; r < thrown.size(); ++r) EXPECT_FALSE(thrown[r]) << r << ": " << what_of(thrown[r]);
  // After the failure no batch reaches the consumer.
  EXPECT_EQ(consumed, (std::vector<int>{0, 1}));
  ASSERT_EQ(second_gather.size(), static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) EXPECT_EQ(second_gather[static_cast<std::size_t>(r)], payload_of(r + 100, 5)) << r;
}

namespace {

struct RowCall {
  std::uint64_t first_row;
  std::vector<float> values;
  bool operator==(const RowCall& o) const { return first_row == o.first_row && values == o.values; }
};

struct RowRecorder final : MatrixSink {
  void begin(const MatrixShape&) override {}
  void write_rows(const std::string&, std::uint64_t first_row, std::span<const float> values) override {
    if (fail) throw std::runtime_error("sink failed");
    calls.push_back({first_row, std::vector<float>(values.begin(), values.end())});
  }
  bool fail = false;
  std::vector<RowCall> calls;
};

}  // namespace

TEST(RowGather, RowsOfManyRanksReachTheSinkInBatchesOfTheBound) {
  RowRecorder sink;
  const auto thrown = on_threads(5, [&](CountingCommunicator& comm) {
    const float r = static_cast<float>(comm.rank());
    const std::vector<float> row = {r, r + 0.5F, -r};
    gather_rows(comm, row, sink, "/m", 2 * 3 * sizeof(float));
  });
  for (const auto& e : thrown) EXPECT_FALSE(e) << what_of(e);
  const std::vector<RowCall> expected = {
      {0, {0, 0.5F, -0.0F}}, {1, {1, 1.5F, -1, 2, 2.5F, -2}}, {3, {3, 3.5F, -3, 4, 4.5F, -4}}};
  EXPECT_EQ(sink.calls, expected);
}

TEST(RowGather, SinkFailureOnManyRanksLetsEveryRankReturn) {
  RowRecorder sink;
  sink.fail = true;
  const auto thrown = on_threads(4, [&](CountingCommunicator& comm) {
    const std::vector<float> row(2, static_cast<float>(comm.rank()));
    gather_rows(comm, row, sink, "/m", sizeof(float));
  });
  ASSERT_TRUE(thrown[0]);
  EXPECT_EQ(what_of(thrown[0]), "sink failed");
  for (int r = 1; r < 4; ++r) EXPECT_FALSE(thrown[static_cast<std::size_t>(r)]) << r;
}

TEST(RowGather, RowsOfDifferentLengthsFailOnEveryRank) {
  RowRecorder sink;
  const auto thrown = on_threads(3, [&](CountingCommunicator& comm) {
    const std::vector<float> row(comm.rank() == 2 ? 4 : 3, 1.0F);
    gather_rows(comm, row, sink, "/links/send_Bps");
  });
  for (int r = 0; r < 3; ++r) {
    ASSERT_TRUE(thrown[static_cast<std::size_t>(r)]) << r;
    EXPECT_EQ(what_of(thrown[static_cast<std::size_t>(r)]),
              "gathering the rows of '/links/send_Bps': the ranks' rows have 3 to 4 columns");
  }
  EXPECT_TRUE(sink.calls.empty());
}
