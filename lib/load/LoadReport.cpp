// The load benchmark's terminal summary (and `bwreport summary`'s): one
// line per node, the node's bandwidth per kernel.
#include <map>

#include "load/LoadBenchmark.hpp"
#include "load/LoadKernels.hpp"
#include "load/LoadTables.hpp"

namespace bws::load {
namespace {

class LoadReport final : public BenchmarkReport {
 public:
  std::vector<std::string> summary_lines(const std::vector<Table>& tables) const override {
    std::vector<std::string> hosts;  // in the tables' order
    std::map<std::string, std::map<std::string, std::string>> cells;  // host -> column -> text
    std::map<std::string, bool> ran;  // kernel -> some node ran it
    for (const Table& t : tables) {
      if (t.path() != kNodesPath) continue;
      for (std::size_t r = 0; r < t.rows(); ++r) {
        const std::string host = t.get_string(r, "host"), kernel = t.get_string(r, "kernel");
        if (!cells.count(host)) hosts.push_back(host);
        auto& c = cells[host];
        c["ranks"] = std::to_string(t.get_int(r, "ranks"));
        c["threads"] = std::to_string(t.get_int(r, "threads"));
        c[kernel] = fixed(t.get_double(r, "bandwidth") / 1e9, 2) + (t.get_int(r, "valid") ? "" : " (invalid)");
        ran[kernel] = true;
      }
    }
    if (hosts.empty()) return {};
    std::vector<std::string> header = {"host", "ranks", "threads"};
    for (const LoadKernelSpec& s : kLoadKernels)
      if (ran.count(std::string(s.name))) header.emplace_back(s.name);
    std::vector<std::vector<std::string>> rows;
    for (const std::string& host : hosts) {
      std::vector<std::string> row = {host};
      for (std::size_t c = 1; c < header.size(); ++c) {
        const auto it = cells[host].find(header[c]);
        row.push_back(it == cells[host].end() ? "-" : it->second);
      }
      rows.push_back(std::move(row));
    }
    std::vector<std::string> lines = {
        "load (likwid-bench load, store, update): node bandwidth in GB/s (1e9 B/s; bytes read + written, "
        "without write-allocate; all ranks of the node together)"};
    for (std::string& l : format_text_table(header, rows)) lines.push_back(std::move(l));
    return lines;
  }
};

}  // namespace

std::unique_ptr<BenchmarkReport> make_load_report() { return std::make_unique<LoadReport>(); }

}  // namespace bws::load
