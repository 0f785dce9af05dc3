#include "roofline/RooflineNodeSummary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "core/ResultColumns.hpp"
#include "roofline/RooflinePeakChecks.hpp"
#include "roofline/RooflineResults.hpp"
#include "roofline/RooflineTables.hpp"

namespace bws::roofline {
namespace {

// One kernel and type of the node, gathered over its ranks.
struct NodeKernel {
  bool sum_rates = false;            // FMA: per sample, the ranks' rates add up
  double work = 0;                   // FLOP or bytes of one call, all ranks
  std::vector<double> node_seconds;  // per sample: the slowest rank's time
  std::vector<double> sample_rates;  // per sample: the sum of the ranks' rates
  bool have_samples = true;
  double rate_sum = 0;  // sum of the ranks' own best rates, when a rank has no samples
  int ranks = 0;
};

// Keeps the first n entries of v, n the shorter of the two (ranks ran the
// same samples; a shorter vector would be a broken table).
template <class F>
void combine(std::vector<double>& v, const std::vector<double>& s, bool first, F f) {
  if (first) {
    v.resize(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) v[i] = f(0.0, s[i]);
    return;
  }
  v.resize(std::min(v.size(), s.size()));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = f(v[i], s[i]);
}

void add_rank_row(NodeKernel& k, const Table& t, std::size_t r, bool compute) {
  const double work = compute ? t.get_double(r, "flops") : t.get_double(r, "bytes");
  k.work += work;
  k.rate_sum += work / t.get_double(r, "t_min");
  const std::vector<double>& s = t.samples(r);
  if (s.empty()) k.have_samples = false;
  const bool first = k.ranks++ == 0;
  combine(k.node_seconds, s, first, [](double a, double b) { return std::max(a, b); });
  combine(k.sample_rates, s, first, [work](double a, double b) { return a + work / b; });
}

double node_rate(const NodeKernel& k) {
  if (!k.have_samples || k.node_seconds.empty()) return k.rate_sum;
  if (k.sum_rates) return *std::max_element(k.sample_rates.begin(), k.sample_rates.end());
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
      NodeKernel& k = kernels[{kernel, type}];
      k.sum_rates = kernel == "FMA";
      add_rank_row(k, t, r, kernel != "Triad");
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
