// run(): the members (one rank per node) split off, measure their rows
// (LinksExchange), hand them to rank 0's sink row batch by row batch
// (core/RowGather) and gather one fixed-size summary each; the other ranks
// wait at a barrier that does not spin.
#include "links/LinksBenchmark.hpp"

#include <algorithm>
#include <cstring>
#include <span>
#include <type_traits>

#include "core/RowGather.hpp"
#include "links/LinksExchange.hpp"
#include "links/LinksPlan.hpp"
#include "links/LinksTables.hpp"

namespace bws::links {
namespace {

static_assert(std::is_trivially_copyable_v<NodeRecord>);

void stream_matrix(Communicator& members, MatrixSink& sink, const char* path, const std::vector<float>& row,
                   const char* unit, const char* description) {
  const auto n = static_cast<std::uint64_t>(members.size());
  if (members.rank() == 0) sink.begin(MatrixShape{path, n, n, unit, description});
  gather_rows(members, row, sink, path);
}

class LinksPlannedCollective final : public PlannedCollective {
 public:
  LinksPlannedCollective(LinksPlan plan, std::string host) : p_(std::move(plan)), host_(std::move(host)) {}

  std::string describe() const override { return describe_links(p_); }

  std::vector<Table> run(Communicator& world, Progress& progress, MatrixSink& matrices) override {
    const int rank = world.rank();
    const bool member = std::binary_search(p_.member_ranks.begin(), p_.member_ranks.end(), rank);
    std::vector<NodeRecord> records;
    if (const std::unique_ptr<Communicator> members = world.split_members(member)) {
      const int n = members->size(), self = members->rank();
      const MemberRows rows = measure_links(*members, p_, [&](int k) {
        if (self == 0) progress.report("links step", static_cast<double>(k) / (n - 1));
      });
      stream_matrix(*members, matrices, kSendMatrixPath, rows.send_Bps, "B/s",
                    "send bandwidth of ordered pair (row -> column) as the row's node timed it");
      stream_matrix(*members, matrices, kReceiveMatrixPath, rows.recv_Bps, "B/s",
                    "receive bandwidth of ordered pair (column -> row) as the row's node timed it");
      if (p_.latency)
        stream_matrix(*members, matrices, kLatencyMatrixPath, rows.latency_s, "s",
                      "one-way time of an 8-byte message row -> column (median of shifts)");
      const NodeRecord mine = summarize_member(rows, self, rank, host_);
      records.resize(self == 0 ? static_cast<std::size_t>(n) : 0);
      members->gather_to_root(std::as_bytes(std::span<const NodeRecord>(&mine, 1)),
                              std::as_writable_bytes(std::span(records)));
    }
    wait_quietly_at_barrier(world);
    if (rank != 0) return {};
    return links_tables(records, describe_links(p_));
  }

 private:
  LinksPlan p_;
  std::string host_;
};

class LinksBenchmark final : public CollectiveBenchmark {
 public:
  std::string name() const override { return "links"; }
  std::string description() const override {
    return "link map: one rank per node; in step k = 1..N-1 node i sends to i+k and receives from i-k (a window "
           "of messages), giving send and receive bandwidth and 8-byte latency of every ordered pair";
  }
  void add_options(boost::program_options::options_description& desc) const override { links_schema().add_to(desc); }
  std::unique_ptr<PlannedCollective> plan(const Config& config, const RankLayout& layout) const override {
    return std::make_unique<LinksPlannedCollective>(plan_links(config, layout), layout.host);
  }
};

}  // namespace

std::unique_ptr<CollectiveBenchmark> make_links_benchmark() { return std::make_unique<LinksBenchmark>(); }

}  // namespace bws::links
