#include "roofline/RooflineNodeSummary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "roofline/RooflineResults.hpp"
#include "roofline/RooflineTables.hpp"

namespace bws::roofline {
namespace {

// One kernel and type of the node, gathered over its ranks.
struct NodeKernel {
  double work = 0;                   // FLOP or bytes of one call, all ranks
  std::vector<double> node_seconds;  // per sample: the slowest rank's time
  bool have_samples = true;
  double rate_sum = 0;  // sum of the ranks' own rates, when a rank has no samples
  int ranks = 0;
};

void add_rank_row(NodeKernel& k, const Table& t, std::size_t r, bool compute) {
  const double work = compute ? t.get_double(r, "flops") : t.get_double(r, "bytes");
  k.work += work;
  k.rate_sum += work / t.get_double(r, "t_min");
  const std::vector<double>& s = t.samples(r);
  if (s.empty()) k.have_samples = false;
  if (k.ranks++ == 0) {
    k.node_seconds = s;
  } else {
    k.node_seconds.resize(std::min(k.node_seconds.size(), s.size()));
    for (std::size_t i = 0; i < k.node_seconds.size(); ++i) k.node_seconds[i] = std::max(k.node_seconds[i], s[i]);
  }
}

double node_rate(const NodeKernel& k) {
  if (!k.have_samples || k.node_seconds.empty()) return k.rate_sum;
  return k.work / *std::min_element(k.node_seconds.begin(), k.node_seconds.end());
}

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
      add_rank_row(kernels[{kernel, type}], t, r, kernel != "Triad");
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
  return {std::move(nodes)};
}

}  // namespace bws::roofline
