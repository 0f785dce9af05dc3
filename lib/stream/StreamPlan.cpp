#include "stream/StreamPlan.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "core/BackendList.hpp"
#include "core/Errors.hpp"
#include "core/OptionText.hpp"
#include "core/Sizes.hpp"
#include "stream/StreamKernels.hpp"
#include "topology/Topology.hpp"

namespace bws::stream {
namespace {

// The most elements per array such that every rank's buffer (three arrays,
// page rounding and offsets) fits in the node's memory; 0 when none fit.
std::uint64_t max_elements_in_memory(std::uint64_t node_memory_bytes, int ranks, std::size_t element_bytes,
                                     std::size_t offset_bytes) {
  const std::uint64_t per_rank = node_memory_bytes / static_cast<std::uint64_t>(ranks);
  const std::uint64_t reserve = 2 * (kPageBytes - 1) + 2 * offset_bytes;  // see make_stream_layout
  if (per_rank <= reserve) return 0;
  return (per_rank - reserve) / (3 * element_bytes);
}

std::string allowed_elements(std::uint64_t max_elements, bool memory_known) {
  return "allowed: " + std::to_string(kMinElements) + ".." +
         (memory_known ? std::to_string(max_elements) : std::string("(node memory unknown)")) + " elements or auto";
}

std::uint64_t resolve_elements(const StreamOptions& o, const NodeContext& node, std::size_t element_bytes,
                               std::size_t offset_bytes) {
  const topo::TopologyInfo& info = node.topology.info();
  const int ranks = std::max(1, node.ranks_on_node);
  const bool memory_known = info.node_memory_bytes > 0;
  const std::uint64_t max_elements =
      memory_known ? max_elements_in_memory(info.node_memory_bytes, ranks, element_bytes, offset_bytes)
                   : UINT64_C(1) << 50;
  const std::string key = o.flag(&StreamOptions::elements);
  if (!o.elements.count) {
    std::uint64_t n = std::max(kAutoMinElements, kAutoLlcMultiple * info.llc_bytes / element_bytes);
    if (memory_known) {
      const double cap = kAutoMemoryFraction * static_cast<double>(info.node_memory_bytes) /
                         (static_cast<double>(ranks) * 3.0 * static_cast<double>(element_bytes));
      n = std::min<std::uint64_t>(n, static_cast<std::uint64_t>(cap));
    }
    if (n < kMinElements)
      throw UsageError(key + " auto: 40% of this node's " + format_bytes(static_cast<double>(info.node_memory_bytes)) +
                       " holds fewer than " + std::to_string(kMinElements) + " elements per array for each of " +
                       std::to_string(ranks) + " ranks; " + allowed_elements(max_elements, memory_known));
    return n;
  }

  const std::uint64_t n = *o.elements.count;
  const std::string& t = o.elements.text;
  if (n < kMinElements)
    throw UsageError(key + ": '" + t + "' is out of range; " + allowed_elements(max_elements, memory_known));
  if (memory_known && n > max_elements) {
    const double array_bytes = static_cast<double>(n) * static_cast<double>(element_bytes);
    throw UsageError(key + " " + t + ": 3 arrays of " + format_bytes(array_bytes) + " on each of " +
                     std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks") + " need " +
                     format_bytes(3.0 * array_bytes * ranks) + "; this node has " +
                     format_bytes(static_cast<double>(info.node_memory_bytes)) + " (" +
                     allowed_elements(max_elements, memory_known) + ")");
  }
  return n;
}

StoreKind resolve_stores(StoresRequest request, std::uint64_t elements, std::size_t element_bytes,
                         std::uint64_t llc_bytes) {
  switch (request) {
    case StoresRequest::Normal:
      return StoreKind::Normal;
    case StoresRequest::Nontemporal:
      return StoreKind::Nontemporal;
    case StoresRequest::Auto:
      break;
  }
  // Arrays that cannot stay in the cache go to memory anyway: streaming
  // stores then save the read of every destination line (write-allocate).
  const bool beyond_llc =
      3.0 * static_cast<double>(elements) * static_cast<double>(element_bytes) > static_cast<double>(llc_bytes);
  return beyond_llc && kHaveNontemporalKernels ? StoreKind::Nontemporal : StoreKind::Normal;
}

}  // namespace

void add_stream_options(boost::program_options::options_description& desc) { stream_schema().add_to(desc); }

StreamCommonParams plan_stream_common(const StreamOptions& o) {
  StreamCommonParams c;
  c.types = o.types;
  const bool has_float = std::find(c.types.begin(), c.types.end(), StreamType::Float) != c.types.end();
  if (has_float && o.reps > kMaxRepsFloat)
    throw UsageError(o.flag(&StreamOptions::reps) + ": '" + std::to_string(o.reps) + "' is out of range; allowed: " +
                     std::to_string(kMinReps) + ".." + std::to_string(kMaxRepsFloat));
  c.reps = o.reps;
  c.validation = o.validation;
  return c;
}

StreamCommonParams plan_stream_common(const Config& config, bool quick) {
  return plan_stream_common(stream_schema().read(config, quick));
}

StreamParams plan_stream(const Config& config, const NodeContext& node) {
  const StreamOptions options = stream_schema().read(config, node.quick);
  return plan_stream(options, node, plan_stream_common(options));
}

StreamParams plan_stream(const StreamOptions& o, const NodeContext& node, const StreamCommonParams& common) {
  if (o.stores == StoresRequest::Nontemporal && !kHaveNontemporalKernels)
    throw UsageError(o.flag(&StreamOptions::stores) +
                     ": 'nontemporal' is not available in this build (non-temporal kernels exist for x86 "
                     "only); allowed: auto, normal");
  if (o.offset_bytes % kLineBytes != 0)
    throw UsageError(o.flag(&StreamOptions::offset_bytes) + ": '" + std::to_string(o.offset_bytes) +
                     "' is not a multiple of 64; allowed: 0..4032 bytes in steps of 64");
  StreamParams p;
  p.ranks_on_node = std::max(1, node.ranks_on_node);
  const std::vector<StreamType>& types = common.types;
  p.stores_request = o.stores;
  p.offset_bytes = o.offset_bytes;
  p.validation = common.validation;

  std::size_t largest_element_bytes = 0;
  for (StreamType t : types) largest_element_bytes = std::max(largest_element_bytes, element_bytes(t));
  p.elements_auto = !o.elements.count;
  p.elements = resolve_elements(o, node, largest_element_bytes, p.offset_bytes);

  const std::uint64_t llc_bytes = node.topology.info().llc_bytes;
  for (StreamType t : types) {
    StreamTypeRun run;
    run.type = t;
    run.stores = resolve_stores(p.stores_request, p.elements, element_bytes(t), llc_bytes);
    run.layout = make_stream_layout(p.elements, element_bytes(t), p.offset_bytes);
    p.buffer_bytes = std::max(p.buffer_bytes, run.layout.total_bytes);
    p.runs.push_back(run);
  }
  return p;
}

std::string describe_stream(const StreamParams& p) {
  std::string types, stores;
  bool same_stores = true;
  for (const StreamTypeRun& r : p.runs) {
    if (!types.empty()) types += '+';
    types += type_name(r.type);
    same_stores = same_stores && r.stores == p.runs.front().stores;
  }
  if (same_stores && !p.runs.empty()) {
    stores = std::string(store_name(p.runs.front().stores)) + " stores";
  } else {
    for (const StreamTypeRun& r : p.runs) {
      if (!stores.empty()) stores += ", ";
      stores.append(type_name(r.type)).append(" ").append(store_name(r.stores));
    }
    stores += " stores";
  }
  if (p.stores_request == StoresRequest::Auto) stores += " (auto)";
  char mib[32];
  std::snprintf(mib, sizeof mib, "%.0f", static_cast<double>(p.buffer_bytes) / (1024.0 * 1024.0));
  return types + ", " + std::to_string(p.elements) + " elements/array, " + mib + " MiB/rank, " + stores;
}

}  // namespace bws::stream
