#include "load/LoadPlan.hpp"

#include <algorithm>

#include "core/Errors.hpp"
#include "core/Sizes.hpp"
#include "load/LoadOptions.hpp"
#include "topology/Topology.hpp"

namespace bws::load {
namespace {

// The most doubles per rank that all ranks of the node hold within the
// fraction of its memory; no limit when the memory is unknown.
std::uint64_t elements_within(double fraction, const NodeContext& node) {
  const std::uint64_t memory = node.topology.info().node_memory_bytes;
  if (memory == 0) return kMaxElements;
  const double ranks = std::max(1, node.ranks_on_node);
  return static_cast<std::uint64_t>(fraction * static_cast<double>(memory) / (ranks * 8.0));
}

std::uint64_t resolve_elements(const LoadOptions& o, const NodeContext& node) {
  const std::uint64_t fit = std::min(kMaxElements, elements_within(1.0, node));
  const int ranks = std::max(1, node.ranks_on_node);
  const std::string allowed = "; allowed: " + std::to_string(kMinElements) + ".." + std::to_string(fit) +
                              " elements or auto (" + std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks") +
                              " on the node, within its memory)";
  if (o.elements) {
    if (*o.elements > fit)
      throw UsageError(o.flag(&LoadOptions::elements) + ": '" + std::to_string(*o.elements) + "' is out of range" +
                       allowed);
    return *o.elements;
  }
  const std::uint64_t llc_elements = kAutoLlcMultiple * node.topology.info().llc_bytes / 8;
  const std::uint64_t n = std::min(std::max(kAutoMinElements, llc_elements), elements_within(kAutoMemoryFraction, node));
  if (n < kMinElements)
    throw UsageError(o.flag(&LoadOptions::elements) + " auto: 40% of the node's memory holds fewer than " +
                     std::to_string(kMinElements) + " doubles per rank" + allowed);
  return n;
}

}  // namespace

LoadParams plan_load(const Config& config, const NodeContext& node) {
  const LoadOptions o = load_schema().read(config, node.quick);
  LoadParams p;
  for (const LoadKernelSpec& s : kLoadKernels)  // table order, whatever order they were given in
    if (std::find(o.kernels.begin(), o.kernels.end(), s.kernel) != o.kernels.end()) p.kernels.push_back(s.kernel);
  p.elements_auto = !o.elements.has_value();
  p.elements = resolve_elements(o, node);
  p.reps = o.reps;
  return p;
}

std::string describe_load(const LoadParams& p) {
  std::string kernels;
  for (LoadKernel k : p.kernels) kernels += (kernels.empty() ? "" : ", ") + std::string(spec_of(k).name);
  return kernels + "; " + std::to_string(p.elements) + " doubles (" +
         format_bytes(8.0 * static_cast<double>(p.elements)) + (p.elements_auto ? ", auto" : "") + "); " +
         std::to_string(p.reps) + " passes";
}

TimeEstimate estimate_load(const LoadParams& p, const MachineSpeed& s) {
  double passes = 0;
  for (LoadKernel k : p.kernels) passes += k == LoadKernel::Update ? 2 : 1;
  const double bytes = 8.0 * static_cast<double>(p.elements);
  const double kernels = p.reps * passes * bytes / s.memory_Bps;
  const double touch = bytes / s.first_touch_Bps;
  TimeEstimate e;
  e.seconds = kernels + touch;
  e.terms = std::to_string(p.kernels.size()) + " kernels x " + std::to_string(p.reps) + " passes x " +
            format_bytes(bytes) + " / " + format_rate(s.memory_Bps) + " + first touch " + duration_text(touch);
  return e;
}

}  // namespace bws::load
