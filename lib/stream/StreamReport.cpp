// STREAM's terminal summary from the stream/nodes tables of all nodes:
// a table of node bandwidths (GB/s) per type and backend ("double", "double
// on ocl"; a device's PCI rows as columns), STREAM 5.10's own table for
// each node of a small run, and a line per result that did not validate.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/Report.hpp"
#include "stream/StreamBenchmark.hpp"
#include "stream/StreamKernelTable.hpp"
#include "stream/StreamTables.hpp"

namespace bws::stream {
namespace {

// STREAM's per-node table is shown when the run is this small.
constexpr std::size_t kMaxNodesForStreamTables = 4;

// The row of one node, type and kernel.
struct KernelFigures {
  double bandwidth_Bps = 0, t_min = 0, t_avg = 0, t_max = 0;
  bool valid = false;
};

struct NodeTypeRow {
  std::string host, type, stores, device;
  std::int64_t ranks = 0, threads = 0, elements = 0;
  std::map<std::string, KernelFigures> kernels;  // by label
};

// "node2" before "node10": digit runs compare as numbers.
bool natural_less(const std::string& x, const std::string& y) {
  std::size_t i = 0, j = 0;
  while (i < x.size() && j < y.size()) {
    if (std::isdigit(static_cast<unsigned char>(x[i])) && std::isdigit(static_cast<unsigned char>(y[j]))) {
      std::size_t ie = i, je = j;
      while (ie < x.size() && std::isdigit(static_cast<unsigned char>(x[ie]))) ++ie;
      while (je < y.size() && std::isdigit(static_cast<unsigned char>(y[je]))) ++je;
      std::string a = x.substr(i, ie - i), b = y.substr(j, je - j);
      a.erase(0, std::min(a.find_first_not_of('0'), a.size()));
      b.erase(0, std::min(b.find_first_not_of('0'), b.size()));
      if (a.size() != b.size()) return a.size() < b.size();
      if (a != b) return a < b;
      i = ie;
      j = je;
    } else {
      if (x[i] != y[j]) return x[i] < y[j];
      ++i;
      ++j;
    }
  }
  return x.size() - i < y.size() - j;
}

// GB/s with two decimals; a rate that is not finite as printf wrote it ("nan", "inf").
std::string gigabytes_text(double bandwidth_Bps) {
  const double v = bandwidth_Bps / 1e9;
  return bws::fixed(v, 2, std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
}

// The nodes' rows per type (types in order of first appearance), hosts sorted.
std::vector<std::pair<std::string, std::vector<NodeTypeRow>>> collect(const std::vector<Table>& node_tables) {
  std::vector<std::pair<std::string, std::vector<NodeTypeRow>>> by_type;
  for (const Table& t : node_tables) {
    if (t.path() != kNodesPath) continue;
    for (std::size_t r = 0; r < t.rows(); ++r) {
      // old files (schema 1.x) are read with backend "cpu" (h5 adapter)
      const std::string backend = t.get_string(r, "backend");
      const std::string type = t.get_string(r, "type") + (backend == kBackendCpu ? "" : " on " + backend);
      const std::string host = t.get_string(r, "host");
      auto type_it = std::find_if(by_type.begin(), by_type.end(), [&](const auto& p) { return p.first == type; });
      if (type_it == by_type.end()) type_it = by_type.insert(by_type.end(), {type, {}});
      auto& rows = type_it->second;
      auto row = std::find_if(rows.begin(), rows.end(), [&](const NodeTypeRow& n) { return n.host == host; });
      if (row == rows.end()) {
        row = rows.insert(rows.end(), NodeTypeRow{});
        row->host = host;
        row->type = type;
        row->stores = t.get_string(r, "stores");
        row->device = backend == kBackendCpu ? "" : t.get_string(r, "device");
        row->ranks = t.get_int(r, "ranks");
        row->threads = t.get_int(r, "threads");
        row->elements = t.get_int(r, "elements");
      }
      row->kernels[t.get_string(r, "kernel")] = {t.get_double(r, "bandwidth"), t.get_double(r, "t_min"),
                                                 t.get_double(r, "t_avg"), t.get_double(r, "t_max"),
                                                 t.get_int(r, "valid") != 0};
    }
  }
  for (auto& [type, rows] : by_type)
    std::stable_sort(rows.begin(), rows.end(),
                     [](const NodeTypeRow& x, const NodeTypeRow& y) { return natural_less(x.host, y.host); });
  return by_type;
}

// (a) one line per node: its aggregate rate of each kernel in GB/s.
void append_node_table(std::vector<std::string>& lines, const std::string& type, const std::vector<NodeTypeRow>& rows) {
  std::set<std::string> stores, devices;
  for (const NodeTypeRow& n : rows) {
    if (!n.stores.empty()) stores.insert(n.stores);
    if (!n.device.empty()) devices.insert(n.device);
  }
  std::string what;  // ", normal, nontemporal stores" on the CPU; ", the device" on another backend
  for (const std::string& s : stores) what += ", " + s;
  if (!stores.empty()) what += " stores";
  for (const std::string& d : devices) what += ", " + d;
  lines.push_back("STREAM " + type + ": node bandwidth in GB/s (1e9 B/s, bytes / best time)" + what);
  std::vector<std::string> header = {"host", "ranks", "threads"};
  std::vector<const StreamOpSpec*> ops;  // the operations any node has
  for (const StreamOpSpec& k : kStreamOpSpecs)
    for (const NodeTypeRow& n : rows)
      if (n.kernels.count(std::string(k.label))) {
        ops.push_back(&k);
        header.emplace_back(k.label);
        break;
      }
  std::vector<std::vector<std::string>> cells;
  for (const NodeTypeRow& n : rows) {
    std::vector<std::string> row = {n.host, std::to_string(n.ranks), std::to_string(n.threads)};
    for (const StreamOpSpec* k : ops) {
      const auto it = n.kernels.find(std::string(k->label));
      row.push_back(it == n.kernels.end() ? "-" : gigabytes_text(it->second.bandwidth_Bps));
    }
    cells.push_back(std::move(row));
  }
  for (std::string& l : format_text_table(header, cells)) lines.push_back(std::move(l));
}

// (b) the table STREAM 5.10 prints, for one node and type.
void append_stream_table(std::vector<std::string>& lines, const NodeTypeRow& n) {
  lines.push_back("STREAM " + n.type + " on " + n.host + " (" + std::to_string(n.ranks) + (n.ranks == 1 ? " rank, " : " ranks, ") +
                  std::to_string(n.threads) + (n.threads == 1 ? " thread, " : " threads, ") + std::to_string(n.elements) + " elements per array)");
  lines.push_back("Function    Best Rate MB/s  Avg time     Min time     Max time");
  for (const StreamOpSpec& k : kStreamOpSpecs) {
    const auto it = n.kernels.find(std::string(k.label));
    if (it == n.kernels.end()) continue;
    const KernelFigures& f = it->second;
    char buf[160];
    std::snprintf(buf, sizeof buf, "%-12s%11.1f  %11.6f  %11.6f  %11.6f", (std::string(k.label) + ":").c_str(),
                  f.bandwidth_Bps / 1e6, f.t_avg, f.t_min, f.t_max);
    lines.emplace_back(buf);
  }
}

class StreamReport final : public BenchmarkReport {
 public:
  std::vector<std::string> summary_lines(const std::vector<Table>& node_tables) const override {
    const auto by_type = collect(node_tables);
    std::vector<std::string> lines;
    std::set<std::string> hosts;
    for (const auto& [type, rows] : by_type) {
      for (const NodeTypeRow& n : rows) hosts.insert(n.host);
      if (!lines.empty()) lines.emplace_back();
      append_node_table(lines, type, rows);
    }
    if (hosts.size() <= kMaxNodesForStreamTables)
      for (const auto& [type, rows] : by_type)
        for (const NodeTypeRow& n : rows) {
          lines.emplace_back();
          append_stream_table(lines, n);
        }
    bool first_invalid = true;
    for (const auto& [type, rows] : by_type)
      for (const NodeTypeRow& n : rows)
        for (const StreamOpSpec& k : kStreamOpSpecs) {
          const auto it = n.kernels.find(std::string(k.label));
          if (it == n.kernels.end() || it->second.valid) continue;
          if (first_invalid) lines.emplace_back();
          first_invalid = false;
          lines.push_back("STREAM INVALID: " + n.host + " " + std::string(k.label) + " " + type +
                          " did not validate or has an impossible rate (see the checks table)");
        }
    return lines;
  }
};

}  // namespace

std::unique_ptr<BenchmarkReport> make_stream_report() { return std::make_unique<StreamReport>(); }

}  // namespace bws::stream
