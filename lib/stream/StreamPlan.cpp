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

const char* const kTypesAllowed = "double, float, both (or a comma list such as double,float)";

std::vector<StreamType> parse_types(const std::string& text) {
  std::vector<StreamType> types;
  auto add = [&](StreamType t) {
    if (std::find(types.begin(), types.end(), t) == types.end()) types.push_back(t);
  };
  std::size_t from = 0;
  while (true) {
    const std::size_t comma = text.find(',', from);
    const std::string token = lower_text(trim_text(std::string_view(text).substr(from, comma - from)));
    if (token == "double") {
      add(StreamType::Double);
    } else if (token == "float") {
      add(StreamType::Float);
    } else if (token == "both") {
      add(StreamType::Double);
      add(StreamType::Float);
    } else {
      throw UsageError(option_flag(kTypeOption) + ": unknown type '" + token + "'; allowed: " + kTypesAllowed);
    }
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  return types;
}

StoresRequest parse_stores(const std::string& text) {
  const std::string t = lower_text(trim_text(text));
  if (t == "auto") return StoresRequest::Auto;
  if (t == "normal") return StoresRequest::Normal;
  if (t == "nontemporal") {
    if (!kHaveNontemporalKernels)
      throw UsageError(option_flag(kStoresOption) +
                       ": 'nontemporal' is not available in this build (non-temporal kernels exist for x86 "
                       "only); allowed: auto, normal");
    return StoresRequest::Nontemporal;
  }
  throw UsageError(option_flag(kStoresOption) + ": unknown value '" + text + "'; allowed: auto, normal, nontemporal");
}

std::size_t parse_offset(const std::string& text) {
  const std::string allowed = "; allowed: 0..4032 bytes in steps of 64";
  const std::string t = trim_text(text);
  std::uint64_t offset = 0;
  if (t != "0") {
    try {
      offset = parse_size(t, option_flag(kOffsetOption));
    } catch (const UsageError& e) {
      throw UsageError(e.what() + allowed);
    }
  }
  if (offset >= kPageBytes) throw UsageError(option_flag(kOffsetOption) + ": '" + text + "' is out of range" + allowed);
  if (offset % kLineBytes != 0)
    throw UsageError(option_flag(kOffsetOption) + ": '" + text + "' is not a multiple of 64" + allowed);
  return static_cast<std::size_t>(offset);
}

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

std::uint64_t resolve_elements(const std::string& text, const NodeContext& node, std::size_t element_bytes,
                               std::size_t offset_bytes, bool& is_auto) {
  const topo::TopologyInfo& info = node.topology.info();
  const int ranks = std::max(1, node.ranks_on_node);
  const bool memory_known = info.node_memory_bytes > 0;
  const std::uint64_t max_elements =
      memory_known ? max_elements_in_memory(info.node_memory_bytes, ranks, element_bytes, offset_bytes)
                   : UINT64_C(1) << 50;
  const std::string key = option_flag(kElementsOption);
  const std::string t = trim_text(text);
  is_auto = lower_text(t) == "auto";

  if (is_auto) {
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

  std::uint64_t n = 0;
  try {
    n = parse_size(t, key);
  } catch (const UsageError& e) {
    throw UsageError(std::string(e.what()) + "; " + allowed_elements(max_elements, memory_known));
  }
  if (n < kMinElements)
    throw UsageError(key + ": '" + text + "' is out of range; " + allowed_elements(max_elements, memory_known));
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

void add_stream_options(boost::program_options::options_description& desc) {
  add_text_option(desc, kBackendOption, kBackendDefault,
                  "STREAM: where it runs, a comma list of backends, each in turn into the one table (its backend "
                  "column): cpu (the rank's pinned threads), ocl (the rank's OpenCL device, --ocl.platform/"
                  "--ocl.device, with PCI write/read rows)");
  add_text_option(desc, kElementsOption, kElementsDefault,
                  "STREAM: elements per array per rank, on every backend; 'auto' makes each array >= 4x the "
                  "device's last-level (global memory) cache and >= 10^7, with all ranks sharing its memory within "
                  "40% of it; or a count such as 64M or 1e7 (K/M/G = x1024), allowed 1024 up to what fits (on ocl "
                  "a multiple of replications x vector-count x buffer-size)");
  add_text_option(desc, kTypeOption, kTypeDefault,
                  "STREAM: element type: double, float, both, or a comma list (double,float)");
  add_text_option(desc, kNtimesOption, kNtimesDefault,
                  "STREAM: repetitions of the four kernels, the first dropped as warm-up; allowed 2..250 (2..30 "
                  "with float: STREAM's values grow 15x per repetition) (--quick with the default: 5)");
  add_text_option(desc, kStoresOption, kStoresDefault,
                  "STREAM: stores of the kernels: normal, nontemporal (x86 streaming stores, no write-allocate), "
                  "or auto (nontemporal when the three arrays exceed the rank's last-level cache)");
  add_text_option(desc, kOffsetOption, kOffsetDefault,
                  "STREAM: bytes array k (0, 1, 2) is shifted by k times this within its page, against 4 KiB "
                  "aliasing; allowed 0..4032 in steps of 64");
  add_text_option(desc, kValidateEpsilonOption, kValidateEpsilonDefault,
                  "STREAM (CPU and OpenCL device alike): largest average relative error of an array, "
                  "avg |x - expected| / |expected| (dimensionless); auto = STREAM 5.10's 1e-13 for double, 1e-6 "
                  "for float; or one number for both types, allowed > 0 and < 1");
}

StreamValidationRule parse_validation_rule(const Config& config) {
  const std::string text = trim_text(option_text(config, kValidateEpsilonOption, kValidateEpsilonDefault));
  if (lower_text(text) == "auto") return {};
  const std::string allowed = "auto, or a number > 0 and < 1";
  const double epsilon = parse_real_number(text, kValidateEpsilonOption, allowed);
  if (!(epsilon > 0 && epsilon < 1))
    throw UsageError(option_flag(kValidateEpsilonOption) + ": '" + text.substr(0, 32) + "' is out of range; allowed: " +
                     allowed);
  return StreamValidationRule{epsilon};
}

StreamCommonParams plan_stream_common(const Config& config, bool quick) {
  StreamCommonParams c;
  c.types = parse_types(option_text(config, kTypeOption, kTypeDefault));
  const bool has_float = std::find(c.types.begin(), c.types.end(), StreamType::Float) != c.types.end();
  c.ntimes = static_cast<int>(parse_whole_number(option_text(config, kNtimesOption, kNtimesDefault), kNtimesOption,
                                                 kMinNtimes, has_float ? kMaxNtimesFloat : kMaxNtimesDouble));
  if (quick && option_defaulted(config, kNtimesOption)) c.ntimes = kQuickNtimes;
  c.validation = parse_validation_rule(config);
  return c;
}

StreamParams plan_stream(const Config& config, const NodeContext& node) {
  return plan_stream(config, node, plan_stream_common(config, node.quick));
}

StreamParams plan_stream(const Config& config, const NodeContext& node, const StreamCommonParams& common) {
  StreamParams p;
  p.ranks_on_node = std::max(1, node.ranks_on_node);
  const std::vector<StreamType>& types = common.types;
  p.ntimes = common.ntimes;
  p.stores_request = parse_stores(option_text(config, kStoresOption, kStoresDefault));
  p.offset_bytes = parse_offset(option_text(config, kOffsetOption, kOffsetDefault));
  p.validation = common.validation;

  std::size_t largest_element_bytes = 0;
  for (StreamType t : types) largest_element_bytes = std::max(largest_element_bytes, element_bytes(t));
  p.elements = resolve_elements(option_text(config, kElementsOption, kElementsDefault), node, largest_element_bytes,
                                p.offset_bytes, p.elements_auto);

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
  return types + ", " + std::to_string(p.elements) + " elements/array, " + mib + " MiB/rank, " + stores + ", " +
         std::to_string(p.ntimes) + " repetitions";
}

}  // namespace bws::stream
