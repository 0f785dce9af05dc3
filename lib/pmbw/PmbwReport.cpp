// pmbw's node table and terminal summary. The ranks of a node ran their
// sweeps at the same time, so a node's plateaus are the sums of its ranks'
// (their areas streamed together) and its latency the largest of theirs.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "pmbw/PmbwBenchmark.hpp"
#include "pmbw/PmbwResults.hpp"

namespace bws::pmbw {
namespace {

class PmbwReport final : public BenchmarkReport {
 public:
  std::vector<std::string> summary_lines(const std::vector<Table>& tables) const override {
    std::vector<std::vector<std::string>> rows;
    for (const Table& t : tables) {
      if (t.path() != kNodesPath) continue;
      for (std::size_t r = 0; r < t.rows(); ++r)
        rows.push_back({t.get_string(r, "host"), std::to_string(t.get_int(r, "ranks")),
                        std::to_string(t.get_int(r, "threads")), t.get_string(r, "scan_routine"),
                        fixed(t.get_double(r, "scan_l1_Bps") / 1e9, 1), fixed(t.get_double(r, "scan_l2_Bps") / 1e9, 1),
                        fixed(t.get_double(r, "scan_ram_Bps") / 1e9, 2), t.get_string(r, "perm_routine"),
                        fixed(t.get_double(r, "perm_ram_access_seconds") * 1e9, 1)});
    }
    if (rows.empty()) return {};
    std::vector<std::string> lines = {
        "pmbw: ScanRead bandwidth plateaus in GB/s (1e9 B/s; medians of the sizes inside L1, L2 and RAM, all",
        "threads, summed over the node's ranks) and the RAM latency of one PermRead walker (largest size)"};
    for (std::string& l : format_text_table({"host", "ranks", "threads", "scan routine", "L1", "L2", "RAM",
                                             "perm routine", "RAM ns/access"},
                                            rows))
      lines.push_back(std::move(l));
    return lines;
  }
};

}  // namespace

std::vector<Table> summarize_pmbw_node(const std::vector<Table>& rank_tables) {
  Table nodes = make_pmbw_nodes_table();
  std::string host, scan, perm;
  std::int64_t ranks = 0, threads = 0;
  double l1 = 0, l2 = 0, ram = 0, latency = std::nan("");
  for (const Table& t : rank_tables) {
    if (t.path() != kPlateausPath) continue;
    for (std::size_t r = 0; r < t.rows(); ++r) {
      if (ranks == 0) {
        host = t.get_string(r, "host");
        scan = t.get_string(r, "scan_routine");
        perm = t.get_string(r, "perm_routine");
      }
      ranks += 1;
      threads += t.get_int(r, "threads");
      l1 += t.get_double(r, "scan_l1_Bps");  // NaN stays NaN: a level no rank measured
      l2 += t.get_double(r, "scan_l2_Bps");
      ram += t.get_double(r, "scan_ram_Bps");
      const double a = t.get_double(r, "perm_ram_access_seconds");
      if (std::isfinite(a)) latency = std::isfinite(latency) ? std::max(latency, a) : a;
    }
  }
  if (ranks == 0) return {};
  nodes.add_row({{"host", host},
                 {"ranks", ranks},
                 {"threads", threads},
                 {"scan_routine", scan},
                 {"scan_l1_Bps", l1},
                 {"scan_l2_Bps", l2},
                 {"scan_ram_Bps", ram},
                 {"perm_routine", perm},
                 {"perm_ram_access_seconds", latency}});
  return {std::move(nodes)};
}

std::unique_ptr<BenchmarkReport> make_pmbw_report() { return std::make_unique<PmbwReport>(); }

}  // namespace bws::pmbw
