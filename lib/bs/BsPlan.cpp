#include "bs/BsPlan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bs/BsMesh.hpp"
#include "bs/BsPlateau.hpp"
#include "core/BackendList.hpp"
#include "core/Errors.hpp"
#include "core/OptionText.hpp"
#include "core/Sizes.hpp"
#include "topology/Topology.hpp"

namespace bws::bs {
namespace {

constexpr std::uint64_t kPage = 4096;
constexpr std::uint64_t round_up(std::uint64_t x, std::uint64_t to) { return (x + to - 1) / to * to; }

std::vector<std::uint64_t> geometric_sweep(std::uint64_t lo, std::uint64_t hi, int points) {
  std::vector<std::uint64_t> bytes;
  const double ratio = static_cast<double>(hi) / static_cast<double>(lo);
  for (int i = 0; i < points; ++i) {
    const double b = static_cast<double>(lo) * std::pow(ratio, static_cast<double>(i) / (points - 1));
    bytes.push_back(i == points - 1 ? hi : static_cast<std::uint64_t>(std::llround(b)));
  }
  return bytes;
}

// The sizes of the sweep. With the auto fit (a plateau above the LLC), half
// of the points (at least kPlateauMinPoints + 2) lie above the LLC: the
// others from min to the LLC, then these up to max, each geometric. A plain
// geometric sweep would leave 5 or 6 there, too few to tell a plateau from
// a slow fall, and to average its noise (bench/bs_plateau_sim.cpp: with 2/5
// of 24 points above the LLC Wmax's 95th-percentile error at 3 % noise was
// 3.4 %, with half 3.0 %).
std::vector<std::uint64_t> sweep_sizes(const BsParams& p) {
  const std::vector<std::uint64_t> plain = geometric_sweep(p.min_bytes, p.max_bytes, p.points);
  const std::uint64_t llc = p.fit_min_bytes;
  const int above = std::max(kPlateauMinPoints + 2, p.points / 2);
  if (!p.fit_min_bytes_auto || llc <= p.min_bytes || llc >= p.max_bytes || p.points - above < 2) return plain;
  const auto plain_above = std::count_if(plain.begin(), plain.end(), [&](std::uint64_t b) { return b > llc; });
  if (plain_above >= above) return plain;
  std::vector<std::uint64_t> bytes = geometric_sweep(p.min_bytes, llc, p.points - above);
  const double ratio = static_cast<double>(p.max_bytes) / static_cast<double>(llc);
  for (int j = 1; j <= above; ++j)
    bytes.push_back(j == above ? p.max_bytes
                               : static_cast<std::uint64_t>(std::llround(static_cast<double>(llc) *
                                                                         std::pow(ratio, static_cast<double>(j) / above))));
  return bytes;
}

// Fills the sweeps and the memory needs of p for its min/max bytes;
// `max_flag` names --bs.max-bytes as it was typed.
void resolve_sweeps(BsParams& p, const std::string& max_flag) {
  p.target_bytes = sweep_sizes(p);
  p.vector_points.assign(5, {});
  p.vector_buffer_bytes = 0;
  const std::uint64_t min_entries = static_cast<std::uint64_t>(p.threads) * kGranule;
  for (BsTest t : p.tests) {
    if (is_mesh_test(t)) continue;
    const BsTestSpec& s = bs_spec(t);
    auto& points = p.vector_points[static_cast<std::size_t>(t) - 1];
    for (std::uint64_t b : p.target_bytes) {
      const std::uint64_t n = std::max<std::uint64_t>(min_entries, b / static_cast<std::uint64_t>(s.bytes_per_entry));
      points.push_back({n, vector_test_bytes(t, n)});
    }
    p.vector_buffer_bytes = std::max(p.vector_buffer_bytes, vector_buffer_bytes_for(s.arrays, points.back().entries));
  }
  p.mesh_sweeps.clear();
  p.mesh_buffer_bytes = p.mesh_host_bytes = 0;
  if (!p.runs_mesh()) return;
  for (int degree : p.degrees) {
    BsDegreeSweep sweep;
    sweep.degree = degree;
    // Masked, K*N must be >= 2 or the mesh has no global node at all.
    const int min_k = p.mask_boundary ? (2 + degree - 1) / degree : 1;
    for (std::uint64_t b : p.target_bytes) {
      const int k = std::max(min_k, elements_per_side_for_bytes(degree, b, p.mask_boundary));
      if (!sweep.points.empty() && sweep.points.back().elements_per_side >= k) continue;
      const BsMeshPoint point = mesh_point(k, degree, p.mask_boundary);
      if (point.local_nodes > static_cast<std::uint64_t>(INT32_MAX))
        throw UsageError(max_flag + " " + format_bytes(static_cast<double>(p.max_bytes)) + ": the degree-" +
                         std::to_string(degree) + " mesh would need " + std::to_string(point.local_nodes) +
                         " local nodes, more than 32-bit ids hold; allowed: a smaller " + max_flag);
      sweep.points.push_back(point);
      const BsMeshLayout layout = mesh_layout(point.global_nodes, point.local_nodes);
      p.mesh_buffer_bytes = std::max(p.mesh_buffer_bytes, layout.total);
      // local_to_global (Nt), row starts (Ng+1), local ids (<= Nt), blocks: int32 each.
      p.mesh_host_bytes = std::max(p.mesh_host_bytes, 4 * (2 * point.local_nodes + point.global_nodes + 1) +
                                                          4 * (point.local_nodes / 256 + 2));
    }
    p.mesh_sweeps.push_back(std::move(sweep));
  }
}

}  // namespace

bool BsParams::runs(BsTest t) const { return std::find(tests.begin(), tests.end(), t) != tests.end(); }

std::uint64_t vector_array_stride(std::uint64_t max_entries) { return round_up(max_entries * 8, kPage); }
std::uint64_t vector_buffer_bytes_for(int arrays, std::uint64_t max_entries) {
  const auto a = static_cast<std::uint64_t>(arrays);
  return a * vector_array_stride(max_entries) + a * kArrayOffsetBytes;
}

BsMeshPoint mesh_point(int k, int degree, bool masked) {
  BsMeshPoint p;
  p.elements_per_side = k;
  const MeshNodeCounts nodes = mesh_node_counts(k, degree, masked);
  p.local_nodes = nodes.local_nodes;
  p.global_nodes = nodes.global_nodes;
  p.unmasked_local_nodes = nodes.unmasked_local_nodes;
  p.gather_bytes = gather_bytes(nodes);
  p.scatter_bytes = scatter_bytes(nodes);
  return p;
}

BsMeshLayout mesh_layout(std::uint64_t ng, std::uint64_t nt) {
  BsMeshLayout l;
  l.row_starts = 0;
  l.local_ids = l.row_starts + round_up((ng + 1) * 4, kPage);
  l.scatter_ids = l.local_ids + round_up(nt * 4, kPage);
  l.x_L = l.scatter_ids + round_up(nt * 4, kPage) + kArrayOffsetBytes;
  l.x_G = l.x_L + round_up(nt * 8, kPage) + kArrayOffsetBytes;
  l.total = l.x_G + round_up(ng * 8, kPage);
  return l;
}

void add_bs_options(boost::program_options::options_description& desc) { bs_schema().add_to(desc); }

BsParams plan_bs(const Config& config, const NodeContext& node) {
  return plan_bs(bs_schema().read(config, node.quick), node);
}

BsParams plan_bs(const BsOptions& options, const NodeContext& node) {
  const topo::TopologyInfo& info = node.topology.info();
  BsTarget target;
  target.llc_bytes = info.llc_bytes;
  target.memory_bytes = info.node_memory_bytes;
  target.threads = node.threads;
  target.ranks_sharing = node.ranks_on_node;
  target.quick = node.quick;
  return plan_bs_for(options, target);
}

BsParams plan_bs_for(const Config& config, const BsTarget& target) {
  return plan_bs_for(bs_schema().read(config, target.quick), target);
}

BsParams plan_bs_for(const BsOptions& o, const BsTarget& target) {
  BsParams p;
  p.threads = std::max(1, target.threads);
  p.ranks_on_node = std::max(1, target.ranks_sharing);
  struct {
    std::uint64_t llc_bytes, node_memory_bytes;
  } const info{target.llc_bytes, target.memory_bytes};
  const std::string where = target.memory_name;
  const std::string max_flag = o.flag(&BsOptions::max_bytes), min_flag = o.flag(&BsOptions::min_bytes);
  p.fit_min_bytes_auto = !o.fit_min_bytes.has_value();
  p.fit_min_bytes = o.fit_min_bytes.value_or(info.llc_bytes);
  p.tests = o.tests;
  if (p.tests.empty()) throw UsageError(o.flag(&BsOptions::tests) + ": no test given; allowed: a comma list of bs1..bs7, or all");
  p.points = o.points;
  p.reps = o.reps;
  p.degrees = o.degrees;
  p.mask_boundary = o.mask_boundary;
  p.min_bytes = o.min_bytes;
  const std::string min_text = format_bytes(static_cast<double>(p.min_bytes));
  const std::string max_text = o.max_bytes ? format_bytes(static_cast<double>(*o.max_bytes)) : "auto";

  const bool memory_known = info.node_memory_bytes > 0;
  const double per_rank_memory = static_cast<double>(info.node_memory_bytes) / p.ranks_on_node;
  p.max_bytes_auto = !o.max_bytes.has_value();
  if (p.max_bytes_auto) {
    const std::uint64_t reach = o.auto_llc_multiple > 0 ? o.auto_llc_multiple : kAutoLlcMultiple;
    p.max_bytes = target.quick ? std::max(kQuickMinMaxBytes, kQuickLlcMultiple * info.llc_bytes)
                               : std::max(kAutoMinMaxBytes, reach * info.llc_bytes);
    p.max_bytes = std::max(p.max_bytes, p.min_bytes);
  } else {
    p.max_bytes = *o.max_bytes;
  }
  if (p.min_bytes > p.max_bytes)
    throw UsageError(min_flag + " " + min_text + " is above " + max_flag + " " +
                     (p.max_bytes_auto ? "auto (" + format_bytes(static_cast<double>(p.max_bytes)) + ")" : max_text) +
                     "; allowed: " + min_flag + " <= " + max_flag);
  resolve_sweeps(p, max_flag);
  if (memory_known && p.max_bytes_auto) {
    // Lower the auto maximum until the node's ranks fit in 40% of its memory.
    const double budget = kAutoMemoryFraction * per_rank_memory;
    for (int tries = 0; tries < 20 && static_cast<double>(p.memory_bytes()) > budget; ++tries) {
      const double shrink = 0.95 * budget / static_cast<double>(p.memory_bytes());
      p.max_bytes = std::max(p.min_bytes, static_cast<std::uint64_t>(static_cast<double>(p.max_bytes) * shrink));
      resolve_sweeps(p, max_flag);
      if (p.max_bytes == p.min_bytes) break;
    }
  }
  if (memory_known && static_cast<double>(p.memory_bytes()) > (p.max_bytes_auto ? kAutoMemoryFraction : 1.0) * per_rank_memory)
    throw UsageError(max_flag + " " +
                     (p.max_bytes_auto ? "auto (" + format_bytes(static_cast<double>(p.max_bytes)) + ")" : max_text) +
                     ": the sweep needs " + format_bytes(static_cast<double>(p.memory_bytes())) + " on each of " +
                     std::to_string(p.ranks_on_node) + (p.ranks_on_node == 1 ? " rank" : " ranks") +
                     "; this " + where + " has " + format_bytes(static_cast<double>(info.node_memory_bytes)) +
                     " (allowed: a smaller " + max_flag + ")");
  return p;
}

std::string describe_fit_range(const BsParams& p) {
  const std::string to = format_bytes(static_cast<double>(p.max_bytes));
  if (!p.fit_min_bytes_auto)
    return "fit from " + format_bytes(static_cast<double>(p.fit_min_bytes)) + " up if the sizes up to " + to + " end flat";
  std::size_t above = 0;
  for (std::uint64_t b : p.target_bytes) above += b >= p.fit_min_bytes ? 1 : 0;
  if (above < static_cast<std::size_t>(kPlateauMinPoints))
    return "no fit: " + std::to_string(above) + " sizes from the LLC (" + format_bytes(static_cast<double>(p.fit_min_bytes)) +
           ") to " + to + ", " + std::to_string(kPlateauMinPoints) + " flat ones needed";
  return "fit on the plateau (>= " + std::to_string(kPlateauMinPoints) + " flat sizes) looked for in " +
         format_bytes(static_cast<double>(p.fit_min_bytes)) + " .. " + to + " (" + std::to_string(above) + " sizes)";
}

std::string describe_bs(const BsParams& p) {
  std::string tests;
  for (BsTest t : p.tests) {  // (appends, not chained +: gcc 12 warns falsely on the latter)
    if (!tests.empty()) tests += ',';
    tests += bs_spec(t).label;
  }
  std::string text = tests + ", " + format_bytes(static_cast<double>(p.min_bytes)) + " .. " +
                     format_bytes(static_cast<double>(p.max_bytes)) + (p.max_bytes_auto ? " (auto)" : "") + ", " +
                     std::to_string(p.points) + " points, " + std::to_string(p.reps) + " reps";
  if (p.runs_mesh()) {
    std::string degrees;
    for (int d : p.degrees) {
      if (!degrees.empty()) degrees += ',';
      degrees += std::to_string(d);
    }
    text += ", degrees " + degrees + (p.mask_boundary ? ", masked" : "");
  }
  char mib[32];
  std::snprintf(mib, sizeof mib, "%.0f", static_cast<double>(p.memory_bytes()) / (1024.0 * 1024.0));
  return text + ", " + mib + " MiB/rank, " + describe_fit_range(p);
}

}  // namespace bws::bs
