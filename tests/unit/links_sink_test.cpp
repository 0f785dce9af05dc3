// The link map end to end without MPI: 3 threads (each a node) run the
// planned benchmark over a ThreadCommunicator; rank 0's MatrixSink must
// receive three 3 x 3 matrices, row by row in order, finite and positive
// off the diagonal, NaN on it. (What the figures are on links of known
// speed: links_exchange_test.cpp, on a simulated network.)
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "ThreadCommunicator.hpp"
#include "links/LinksBenchmark.hpp"
#include "links/LinksTables.hpp"

namespace bws::links {
namespace {

class RecordingSink final : public MatrixSink {
 public:
  void begin(const MatrixShape& shape) override {
    shapes[shape.path] = shape;
    values[shape.path].assign(shape.rows * shape.columns, -1.0f);
    next_row[shape.path] = 0;
  }
  void write_rows(const std::string& path, std::uint64_t first_row, std::span<const float> rows) override {
    ASSERT_TRUE(shapes.count(path)) << path << " written before begin()";
    EXPECT_EQ(first_row, next_row[path]) << "rows out of order";
    const std::uint64_t columns = shapes[path].columns;
    ASSERT_EQ(rows.size() % columns, 0u);
    std::copy(rows.begin(), rows.end(), values[path].begin() + static_cast<std::ptrdiff_t>(first_row * columns));
    next_row[path] = first_row + rows.size() / columns;
  }
  std::map<std::string, MatrixShape> shapes;
  std::map<std::string, std::vector<float>> values;
  std::map<std::string, std::uint64_t> next_row;
};

class NoProgress final : public Progress {
 public:
  void report(std::string_view, double) override {}
};

constexpr int n = 3;

// The benchmark on n threads, each a node; rank 0's tables.
std::vector<Table> run_on_threads(const std::shared_ptr<testing_support::ThreadFabric>& fabric, RecordingSink& sink) {
  Config config;
  config.set("links.bytes", "4K");
  config.set("links.window", "2");
  config.set("links.reps", "2");
  std::vector<Table> tables;
  std::vector<std::thread> threads;
  for (int rank = 0; rank < n; ++rank)
    threads.emplace_back([&, rank] {
      RankLayout layout;
      layout.rank = rank;
      layout.size = n;
      layout.node_of_rank = {0, 1, 2};
      layout.n_nodes = n;
      layout.host = "node" + std::to_string(rank);
      testing_support::ThreadCommunicator comm(fabric, rank);
      DiscardingMatrixSink unused;
      NoProgress progress;
      auto planned = make_links_benchmark()->plan(config, layout);
      auto out = planned->run(comm, progress, rank == 0 ? static_cast<MatrixSink&>(sink) : unused);
      if (rank == 0) tables = std::move(out);
    });
  for (auto& t : threads) t.join();
  return tables;
}

TEST(LinksSink, EveryMembersRowsReachRankZerosSinkInOrder) {
  RecordingSink sink;
  const std::vector<Table> tables = run_on_threads(std::make_shared<testing_support::ThreadFabric>(n), sink);
  for (const char* path : {kSendMatrixPath, kReceiveMatrixPath, kLatencyMatrixPath}) {
    ASSERT_TRUE(sink.shapes.count(path)) << path;
    EXPECT_EQ(sink.shapes[path].rows, 3u);
    EXPECT_EQ(sink.shapes[path].columns, 3u);
    EXPECT_EQ(sink.next_row[path], 3u) << path << ": every row written";
    EXPECT_FALSE(sink.shapes[path].description.empty());
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const float v = sink.values[path][static_cast<std::size_t>(i * n + j)];
        if (i == j)
          EXPECT_TRUE(std::isnan(v)) << path << " diagonal";
        else
          EXPECT_TRUE(std::isfinite(v) && v > 0) << path << " [" << i << "][" << j << "] = " << v;
      }
  }
  EXPECT_EQ(sink.shapes[kSendMatrixPath].unit, "B/s");
  EXPECT_EQ(sink.shapes[kLatencyMatrixPath].unit, "s");

  ASSERT_EQ(tables.size(), 4u);  // nodes, hosts, checks, low_peers (no switch tree)
  ASSERT_EQ(tables[0].rows(), 3u);
  EXPECT_EQ(tables[0].get_string(2, "host"), "node2");
  EXPECT_EQ(tables[2].get_int(0, "passed"), 1);
}

TEST(LinksSink, CorruptMessagesFailThePayloadCheckNamingTheSender) {
  auto fabric = std::make_shared<testing_support::ThreadFabric>(n);
  fabric->corrupt_messages_from(1, 4096);  // the 4 KiB messages only, not the rows or the records
  RecordingSink sink;
  const std::vector<Table> tables = run_on_threads(fabric, sink);
  ASSERT_EQ(tables.size(), 4u);
  const Table& nodes = tables[0];
  const Table& checks = tables[2];
  // Node 1 sends to 0 and to 2, each in its round: each receives one bad
  // verification window of 2 messages with one wrong word each.
  EXPECT_EQ(nodes.get_int(0, "payload_problems"), 2);
  EXPECT_EQ(nodes.get_int(1, "payload_problems"), 0);
  EXPECT_EQ(nodes.get_int(2, "payload_problems"), 2);
  ASSERT_EQ(checks.rows(), 2u);
  for (std::size_t r = 0; r < 2; ++r) {
    EXPECT_EQ(checks.get_int(r, "passed"), 0);
    EXPECT_NE(checks.get_string(r, "subject").find("2 messages with 2 wrong words, the first from node 1"),
              std::string::npos)
        << checks.get_string(r, "subject");
  }
}

}  // namespace
}  // namespace bws::links
