// The link map's terminal summary from the kept links/nodes table: the
// cohort's medians and the node with the lowest single pair. The verdicts
// (which NIC, pair or uplink) come from model/LinkVerdicts, not from here.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/Report.hpp"
#include "core/SampleStats.hpp"
#include "core/Sizes.hpp"
#include "links/LinksBenchmark.hpp"
#include "links/LinksTables.hpp"

namespace bws::links {
namespace {

// The median of the finite values (a node without a figure is left out).
double median(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); }), v.end());
  return median_of(v);
}

struct Pair {
  std::size_t from = 0, to = 0;
  double Bps = 0;
};

// One slow link i -> j lowers i's send figure to j and j's receive figure
// from i (each pair is measured alone, one direction at a time). A pair
// counts when both ends name each other:
// i's lowest send goes to j and j's lowest receive comes from i; the
// lowest such pair, by the higher of the two figures.
std::optional<Pair> lowest_confirmed_pair(const Table& nodes) {
  std::optional<Pair> lowest;
  for (std::size_t i = 0; i < nodes.rows(); ++i) {
    const std::int64_t j = nodes.get_int(i, "worst_out_peer");
    if (j < 0 || static_cast<std::size_t>(j) >= nodes.rows()) continue;
    const auto to = static_cast<std::size_t>(j);
    if (nodes.get_int(to, "worst_in_peer") != static_cast<std::int64_t>(i)) continue;
    const double Bps = std::max(nodes.get_double(i, "worst_out_Bps"), nodes.get_double(to, "worst_in_Bps"));
    if (!lowest || Bps < lowest->Bps) lowest = Pair{i, to, Bps};
  }
  return lowest;
}

// Whether two members ran on one host (a run on one host, where every
// rank stands for a node).
bool shares_hosts(const Table& nodes) {
  std::set<std::string> hosts;
  for (std::size_t r = 0; r < nodes.rows(); ++r)
    if (!hosts.insert(nodes.get_string(r, "host")).second) return true;
  return false;
}

class LinksReport final : public BenchmarkReport {
 public:
  std::vector<std::string> summary_lines(const std::vector<Table>& tables) const override {
    const Table* nodes = find_table(tables, kNodesPath);
    if (nodes == nullptr || nodes->rows() == 0) return {};
    std::vector<double> out, in, latency;
    for (std::size_t r = 0; r < nodes->rows(); ++r) {
      out.push_back(nodes->get_double(r, "out_Bps"));
      in.push_back(nodes->get_double(r, "in_Bps"));
      latency.push_back(nodes->get_double(r, "latency_s"));
    }
    std::vector<std::string> lines;
    lines.push_back("links: " + std::to_string(nodes->rows()) + " nodes, median out " + format_rate(median(out)) +
                    ", median in " + format_rate(median(in)) + ", median 8 B latency " +
                    fixed(median(latency) * 1e6, 2, "n/a") + " us");
    if (shares_hosts(*nodes))
      lines.push_back("links: the members share a host (each rank stands for a node): no node verdicts, a rank has no "
                      "NIC of its own; pair verdicts only");
    if (const auto pair = lowest_confirmed_pair(*nodes))
      lines.push_back("links: lowest pair (low at both ends): node " + std::to_string(pair->from) + " (" +
                      nodes->get_string(pair->from, "host") + ") -> node " + std::to_string(pair->to) + " (" +
                      nodes->get_string(pair->to, "host") + "): " + format_rate(pair->Bps));
    return lines;
  }
};

}  // namespace

std::unique_ptr<BenchmarkReport> make_links_report() { return std::make_unique<LinksReport>(); }

}  // namespace bws::links
