// The ocl benchmark's terminal summary: device STREAM per node (GB/s of
// each operation, PCI rows included), HPCC_FPGA's table per node for a
// small run, a line per row that did not validate, then the BS1-BS7 fits of
// backend "ocl" (lib/bs's summary). b_eff's device path is reported by
// b_eff's own report (its rows say path = device).
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "bs/BsBenchmark.hpp"
#include "ocl/OclBenchmark.hpp"
#include "ocl/OclStreamResults.hpp"

namespace bws::ocl {
namespace {

constexpr std::size_t kMaxNodesForTables = 4;

struct OpFigures {
  double bandwidth = 0, t_min = 0, t_avg = 0, t_max = 0;
  bool valid = false;
};
struct NodeRow {
  std::string type;
  std::int64_t ranks = 0, devices = 0, elements = 0;
  std::map<std::string, OpFigures> ops;
};

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

class OclReport final : public BenchmarkReport {
 public:
  std::vector<std::string> summary_lines(const std::vector<Table>& tables) const override {
    std::map<std::string, NodeRow> nodes;  // by host
    for (const Table& t : tables) {
      if (t.path() != kStreamNodesPath) continue;
      for (std::size_t r = 0; r < t.rows(); ++r) {
        NodeRow& n = nodes[t.get_string(r, "host")];
        n.type = t.get_string(r, "type");
        n.ranks = t.get_int(r, "ranks");
        n.devices = t.get_int(r, "devices");
        n.elements = t.get_int(r, "elements");
        n.ops[t.get_string(r, "kernel")] = {t.get_double(r, "bandwidth"), t.get_double(r, "t_min"),
                                            t.get_double(r, "t_avg"), t.get_double(r, "t_max"),
                                            t.get_int(r, "valid") != 0};
      }
    }
    std::vector<std::string> lines;
    if (!nodes.empty()) {
      lines.push_back("OpenCL STREAM (seed 000): node bandwidth in GB/s (bytes / best time; PCI rows move A, B and C)");
      std::vector<std::string> header = {"host", "ranks", "devices", "type"};
      for (const OclStreamOpSpec& s : kOclStreamOpSpecs) header.emplace_back(s.label);
      std::vector<std::vector<std::string>> cells;
      for (const auto& [host, n] : nodes) {
        std::vector<std::string> row = {host, std::to_string(n.ranks), std::to_string(n.devices), n.type};
        for (const OclStreamOpSpec& s : kOclStreamOpSpecs) {
          const auto it = n.ops.find(s.label);
          row.push_back(it == n.ops.end() ? "-" : fixed(it->second.bandwidth / 1e9, 2));
        }
        cells.push_back(std::move(row));
      }
      for (std::string& l : format_text_table(header, cells)) lines.push_back(std::move(l));
      if (nodes.size() <= kMaxNodesForTables)
        for (const auto& [host, n] : nodes) {
          lines.emplace_back();
          lines.push_back("OpenCL STREAM " + n.type + " on " + host + " (" + std::to_string(n.ranks) +
                          (n.ranks == 1 ? " rank, " : " ranks, ") + std::to_string(n.elements) +
                          " elements per array)");
          char buf[200];
          std::snprintf(buf, sizeof buf, "%-10s %20s %20s %20s %20s", "Function", "Best Rate MB/s", "Avg time s",
                        "Min time s", "Max time s");
          lines.emplace_back(buf);
          for (const OclStreamOpSpec& s : kOclStreamOpSpecs) {
            const auto it = n.ops.find(s.label);
            if (it == n.ops.end()) continue;
            std::snprintf(buf, sizeof buf, "%-10s %20.5e %20.5e %20.5e %20.5e", s.label, it->second.bandwidth / 1e6,
                          it->second.t_avg, it->second.t_min, it->second.t_max);
            lines.emplace_back(buf);
          }
        }
      bool first = true;
      for (const auto& [host, n] : nodes)
        for (const auto& [op, f] : n.ops) {
          if (f.valid) continue;
          if (first) lines.emplace_back();
          first = false;
          lines.push_back("OpenCL STREAM INVALID: " + host + " " + op +
                          " did not validate or has an impossible rate (see the checks table)");
        }
    }
    std::vector<std::string> bs = bs::bs_fit_summary_lines(tables, kBackendOcl);
    if (!bs.empty() && !lines.empty()) lines.emplace_back();
    for (std::string& l : bs) lines.push_back(std::move(l));
    return lines;
  }
};

}  // namespace

std::unique_ptr<BenchmarkReport> make_ocl_report() { return std::make_unique<OclReport>(); }

}  // namespace bws::ocl
