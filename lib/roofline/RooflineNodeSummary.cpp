#include "roofline/RooflineNodeSummary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "core/NodeAggregate.hpp"
#include "core/ResultColumns.hpp"
#include "roofline/RooflinePeakChecks.hpp"
#include "roofline/RooflineResults.hpp"
#include "roofline/RooflineTables.hpp"

namespace bws::roofline {
namespace {

// One kernel and type of the node, gathered over its ranks (no warm-up is stored).
struct NodeKernel {
  bool sum_rates = false;  // FMA: per sample, the ranks' rates add up
  NodeAggregate samples;
};

double node_rate(const NodeKernel& k) { return k.sum_rates ? k.samples.best_summed_rate() : k.samples.rate(); }

}  // namespace

std::vector<Table> summarize_roofline_node(const std::vector<Table>& rank_tables) {
  std::map<std::pair<std::string, std::string>, NodeKernel> kernels;  // (kernel, type)
  std::set<std::int64_t> ranks;
  std::int64_t threads = 0;
  std::string host;
  Ceilings node;
  for (const Table& t : rank_tables) {
    if (t.path() == kRanksPath) {
      for (std::size_t r = 0; r < t.rows(); ++r) {
        node.blas = t.get_string(r, "blas");
        node.valid = node.valid && t.get_int(r, "valid") != 0;
      }
      continue;
    }
    if (t.path() != kResultsPath) continue;
    for (std::size_t r = 0; r < t.rows(); ++r) {
      const std::string kernel = t.get_string(r, "kernel"), type = t.get_string(r, "type");
      host = t.get_string(r, "host");
      if (ranks.insert(t.get_int(r, "rank")).second) threads += t.get_int(r, "threads");
      if (kernel == "FMA") node.isa = t.get_string(r, "implementation");
      node.valid = node.valid && t.get_int(r, "valid") != 0;
      NodeKernel& k = kernels[{kernel, type}];
      k.sum_rates = kernel == "FMA";
      k.samples.add_row(t, r, kernel != "Triad" ? "flops" : "bytes");
    }
  }
  if (ranks.empty()) return {};
  for (const auto& [key, k] : kernels) {
    const double rate = node_rate(k);
    const auto& [kernel, type] = key;
    const bool is_double = type == "double";
    if (kernel == "FMA") (is_double ? node.fma_double_flop_per_s : node.fma_float_flop_per_s) = rate;
    if (kernel == "GEMM") (is_double ? node.gemm_double_flop_per_s : node.gemm_float_flop_per_s) = rate;
    if (kernel == "Triad") node.triad_Bps = rate;
  }
  Table nodes = make_roofline_nodes_table();
  add_ceilings_row(nodes, {{"host", host}, {"ranks", ranks.size()}, {"threads", threads}}, node);
  Table checks = make_checks_table();
  add_peak_checks(checks, "node " + host, node);
  std::vector<Table> out;
  out.push_back(std::move(nodes));
  if (checks.rows() > 0) out.push_back(std::move(checks));
  return out;
}

}  // namespace bws::roofline
