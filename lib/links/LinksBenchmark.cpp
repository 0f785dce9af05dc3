// run(): the members (one rank per node) split off, measure their rows
// (LinksExchange), hand them to rank 0's sink row batch by row batch
// (core/RowGather) and gather one fixed-size summary each; the other ranks
// wait at a barrier that does not spin.
#include "links/LinksBenchmark.hpp"

#include <algorithm>
#include <cstring>
#include <span>
#include <type_traits>

#include "core/ProbedCollective.hpp"
#include "core/RowGather.hpp"
#include "links/LinksExchange.hpp"
#include "links/LinksPlan.hpp"
#include "links/LinksProbeRun.hpp"
#include "links/LinksTables.hpp"
#include "links/LinksTopology.hpp"
#include "model/LinkRows.hpp"

namespace bws::links {
namespace {

static_assert(std::is_trivially_copyable_v<NodeRecord>);

void stream_matrix(Communicator& members, MatrixSink& sink, const char* path, const std::vector<float>& row,
                   const char* unit, const char* description) {
  const auto n = static_cast<std::uint64_t>(members.size());
  if (members.rank() == 0) sink.begin(MatrixShape{path, n, n, unit, description});
  gather_rows(members, row, sink, path);
}

// The switch tree for the tables: member 0 (world rank 0, the one rank that
// holds the topology) finds every member's leaf from the gathered hosts and
// broadcasts them ([S, leaf of member 0..N-1], -1 unknown); each member
// reduces its own send row to S per-leaf medians, gathered on member 0.
LinksTree gather_tree(Communicator& members, const model::SwitchTopology* topology,
                      const std::vector<NodeRecord>& records, const std::vector<float>& send_Bps) {
  const int n = members.size(), self = members.rank();
  LinksTree tree;
  std::vector<int> shared(static_cast<std::size_t>(n) + 1, 0);
  if (self == 0 && topology && !topology->empty()) {
    std::vector<std::string> hosts;
    for (const NodeRecord& r : records) hosts.push_back(host_of(r));
    model::HostLeaves leaves = model::host_leaves(*topology, hosts);
    shared[0] = static_cast<int>(leaves.leaves.size());
    std::copy(leaves.leaf_of_host.begin(), leaves.leaf_of_host.end(), shared.begin() + 1);
    tree.leaves = std::move(leaves.leaves);
    tree.leaf_of_host = std::move(leaves.leaf_of_host);
    for (const std::string& s : topology->switches()) tree.switch_parents.emplace_back(s, topology->parent_of(s));
  }
  members.broadcast_from_root(shared);
  const auto S = static_cast<std::size_t>(shared[0]);
  if (S == 0) return {};  // no tree, or none of the run's hosts in it
  const std::vector<int> leaf_of_host(shared.begin() + 1, shared.end());
  const std::vector<double> send(send_Bps.begin(), send_Bps.end());
  const std::vector<double> mine = model::per_leaf_medians(send, self, leaf_of_host, S);
  tree.leaf_medians_Bps.resize(self == 0 ? static_cast<std::size_t>(n) * S : 0);
  members.gather_to_root(std::as_bytes(std::span(mine)), std::as_writable_bytes(std::span(tree.leaf_medians_Bps)));
  return tree;
}

class LinksPlannedCollective final : public ProbedCollective {
 public:
  LinksPlannedCollective(LinksPlan plan, LinksOptions options, const RankLayout& layout)
      : p_(std::move(plan)), o_(std::move(options)), host_(layout.host), speed_(layout.speed),
        bounds_(probe_bounds(p_)) {}

  std::string describe() const override { return describe_links(p_); }
  // The plan's own model (LinksPlan.hpp), which --time-budget bounds.
  std::map<std::string, std::string> fitted_options() const override { return p_.chosen_options; }
  TimeEstimate estimate() const override { return {p_.estimate_seconds, estimate_terms(p_)}; }
  // The members' links at the plan's window (links/LinksProbeRun.hpp), then the plan again from them.
  void probe(Communicator& world) override {
    refit_links_to_probe(p_, o_, probe_links(world, p_.member_ranks, p_.window, bounds_), speed_);
  }

  std::vector<Table> run(Communicator& world, Progress& progress, MatrixSink& matrices) override {
    const int rank = world.rank();
    const bool member = std::binary_search(p_.member_ranks.begin(), p_.member_ranks.end(), rank);
    std::vector<NodeRecord> records;
    LinksTree tree;
    if (const std::unique_ptr<Communicator> members = world.split_members(member)) {
      const int n = members->size(), self = members->rank();
      const MemberRows rows = measure_links(*members, p_, [&](int done, int rounds) {
        if (self == 0) progress.report("links round", static_cast<double>(done) / rounds);
      });
      stream_matrix(*members, matrices, kSendMatrixPath, rows.send_Bps, "B/s",
                    "send bandwidth of ordered pair (row -> column) as the row's node timed it, the pair alone");
      stream_matrix(*members, matrices, kReceiveMatrixPath, rows.recv_Bps, "B/s",
                    "receive bandwidth of ordered pair (column -> row) as the row's node timed it, the pair alone");
      if (p_.latency)
        stream_matrix(*members, matrices, kLatencyMatrixPath, rows.latency_s, "s",
                      "8-byte latency row -> column: half the best round trip the row timed with the column");
      const NodeRecord mine = summarize_member(rows, self, rank, host_);
      records.resize(self == 0 ? static_cast<std::size_t>(n) : 0);
      members->gather_to_root(std::as_bytes(std::span<const NodeRecord>(&mine, 1)),
                              std::as_writable_bytes(std::span(records)));
      tree = gather_tree(*members, p_.tree.tree.get(), records, rows.send_Bps);
    }
    wait_quietly_at_barrier(world);
    if (rank != 0) return {};
    return links_tables(records, describe_links(p_), tree);
  }

 private:
  LinksPlan p_;
  LinksOptions o_;
  std::string host_;
  MachineSpeed speed_;
  ProbeBounds bounds_;
};

class LinksBenchmark final : public CollectiveBenchmark {
 public:
  std::string name() const override { return "links"; }
  std::string description() const override {
    return "link map: one rank per node; in rounds of disjoint pairs each pair runs 8-byte ping-pongs, then "
           "sends a window of messages one way, then the other, giving send and receive bandwidth and latency of "
           "every ordered pair";
  }
  void add_options(boost::program_options::options_description& desc) const override { links_schema().add_to(desc); }
  std::unique_ptr<PlannedCollective> plan(const Config& config, const RankLayout& layout) const override {
    LinksOptions options = links_schema().read(config, layout.quick);
    LinksPlan plan = plan_links(options, layout);
    if (plan.topology.empty() && layout.rank == 0) plan.tree = topology_from_scontrol();
    return std::make_unique<LinksPlannedCollective>(std::move(plan), std::move(options), layout);
  }
};

}  // namespace

std::unique_ptr<CollectiveBenchmark> make_links_benchmark() { return std::make_unique<LinksBenchmark>(); }

}  // namespace bws::links
