// core/RowGather on one rank (the loopback communicator): the row reaches
// the sink whatever the batch bound, rows of no columns too, and a sink's
// failure is thrown. More ranks: tests/mpi/row_gather_scaling.
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "BeffLoopback.hpp"
#include "core/RowGather.hpp"

namespace {

struct RecordingSink final : bws::MatrixSink {
  void begin(const bws::MatrixShape&) override {}
  void write_rows(const std::string& path, std::uint64_t first_row, std::span<const float> values) override {
    calls.push_back({path, first_row, std::vector<float>(values.begin(), values.end())});
  }
  struct Call {
    std::string path;
    std::uint64_t first_row;
    std::vector<float> values;
  };
  std::vector<Call> calls;
};

struct FailingSink final : bws::MatrixSink {
  void begin(const bws::MatrixShape&) override {}
  void write_rows(const std::string&, std::uint64_t, std::span<const float>) override {
    throw std::runtime_error("disk full");
  }
};

}  // namespace

TEST(RowGather, OneRankHandsItsRowToTheSinkWhateverTheBound) {
  for (const std::uint64_t bound : {std::uint64_t{1}, std::uint64_t{12}, bws::kRowBatchBytes}) {
    bws::testing_support::LoopbackCommunicator comm;
    RecordingSink sink;
    const std::vector<float> row = {1.5F, -2.0F, 3.25F};
    bws::gather_rows(comm, row, sink, "/links/send_Bps", bound);
    ASSERT_EQ(sink.calls.size(), 1u) << bound;
    EXPECT_EQ(sink.calls[0].path, "/links/send_Bps");
    EXPECT_EQ(sink.calls[0].first_row, 0u);
    EXPECT_EQ(sink.calls[0].values, row);
  }
}

TEST(RowGather, RowsOfNoColumnsComeAsOneEmptyBatch) {
  bws::testing_support::LoopbackCommunicator comm;
  RecordingSink sink;
  bws::gather_rows(comm, std::span<const float>(), sink, "/m", 1);
  ASSERT_EQ(sink.calls.size(), 1u);
  EXPECT_TRUE(sink.calls[0].values.empty());
}

TEST(RowGather, SinkFailureIsThrown) {
  bws::testing_support::LoopbackCommunicator comm;
  FailingSink sink;
  const std::vector<float> row = {1.0F};
  EXPECT_THROW(bws::gather_rows(comm, row, sink, "/m"), std::runtime_error);
}
