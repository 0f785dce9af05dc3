// The link map's terminal summary from the kept links/nodes table: the
// cohort's medians and the node with the lowest single pair. The verdicts
// (which NIC, pair or uplink) come from model/LinkVerdicts, not from here.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/Report.hpp"
#include "core/Sizes.hpp"
#include "links/LinksBenchmark.hpp"
#include "links/LinksTables.hpp"

namespace bws::links {
namespace {

double median(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); }), v.end());
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

class LinksReport final : public BenchmarkReport {
 public:
  std::vector<std::string> summary_lines(const std::vector<Table>& tables) const override {
    const Table* nodes = nullptr;
    for (const Table& t : tables)
      if (t.path() == kNodesPath) nodes = &t;
    if (nodes == nullptr || nodes->rows() == 0) return {};
    std::vector<double> out, in, latency;
    std::size_t worst = 0;
    for (std::size_t r = 0; r < nodes->rows(); ++r) {
      out.push_back(nodes->get_double(r, "out_Bps"));
      in.push_back(nodes->get_double(r, "in_Bps"));
      latency.push_back(nodes->get_double(r, "latency_s"));
      if (nodes->get_double(r, "worst_out_Bps") < nodes->get_double(worst, "worst_out_Bps")) worst = r;
    }
    std::vector<std::string> lines;
    lines.push_back("links: " + std::to_string(nodes->rows()) + " nodes, median out " + format_rate(median(out)) +
                    ", median in " + format_rate(median(in)) + ", median 8 B latency " +
                    fixed(median(latency) * 1e6, 2, "n/a") + " us");
    lines.push_back("links: lowest pair: " + nodes->get_string(worst, "host") + " (node " + std::to_string(worst) +
                    ") -> node " + std::to_string(nodes->get_int(worst, "worst_out_peer")) + ": " +
                    format_rate(nodes->get_double(worst, "worst_out_Bps")));
    return lines;
  }
};

}  // namespace

std::unique_ptr<BenchmarkReport> make_links_report() { return std::make_unique<LinksReport>(); }

}  // namespace bws::links
