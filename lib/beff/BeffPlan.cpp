#include "beff/BeffPlan.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <unistd.h>

#include "core/Errors.hpp"
#include "core/OptionText.hpp"
#include "core/Sizes.hpp"
#include "model/MessageSizes.hpp"

namespace bws::beff {
namespace {

constexpr std::uint64_t kMaxSeed = (std::uint64_t{1} << 63) - 1;  // as BeffOptions: an auto seed fits too

// The largest message this rank may use: 4 buffers of it on every rank of
// the node within 40% of the node's memory, and a byte count MPI takes as int.
std::uint64_t message_limit_bytes(const RankLayout& layout) {
  const std::uint64_t mpi_limit = INT_MAX;
  if (layout.node_memory_bytes == 0) return mpi_limit;  // memory unknown: MPI's limit only
  const double per_buffer = kMemoryFraction * static_cast<double>(layout.node_memory_bytes) /
                            (kBuffersPerRank * static_cast<double>(std::max(1, layout.ranks_on_node)));
  return std::min<std::uint64_t>(mpi_limit, static_cast<std::uint64_t>(per_buffer));
}

std::string memory_reason(const RankLayout& layout, std::uint64_t limit) {
  if (layout.node_memory_bytes == 0 || limit == static_cast<std::uint64_t>(INT_MAX))
    return "MPI counts bytes in an int";
  const int ranks = std::max(1, layout.ranks_on_node);
  return "4 buffers per rank on " + std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks") + " within 40% of " +
         format_bytes(static_cast<double>(layout.node_memory_bytes));
}

std::string allowed_sizes(std::uint64_t limit) { return "allowed: 1.." + std::to_string(limit) + " bytes"; }

// The explicit sizes (already checked as sizes, none twice) within memory, ascending.
std::vector<std::uint64_t> sizes_within_memory(const BeffOptions& o, const RankLayout& layout, std::uint64_t limit) {
  const std::string allowed = allowed_sizes(limit) + " (" + memory_reason(layout, limit) + ")";
  for (std::uint64_t bytes : o.sizes_bytes)
    if (bytes > limit)
      throw UsageError(o.flag(&BeffOptions::sizes_bytes) + ": " + std::to_string(bytes) + " bytes is above what memory allows; " +
                       allowed);
  std::vector<std::uint64_t> sizes = o.sizes_bytes;
  std::sort(sizes.begin(), sizes.end());
  return sizes;
}

std::vector<std::uint64_t> sizes_for_max_bytes(const BeffOptions& o, const RankLayout& layout, std::uint64_t limit) {
  const std::string allowed = "allowed: " + std::to_string(model::beff_smallest_max_bytes()) + ".." +
                              std::to_string(limit) + " bytes (" + memory_reason(layout, limit) + ")";
  if (o.max_bytes > limit)
    throw UsageError(o.flag(&BeffOptions::max_bytes) + ": " + std::to_string(o.max_bytes) +
                     " bytes is above what memory allows; " + allowed);
  // Throws for <= 4096 (a would be <= 1) and values too close to 4096.
  return model::beff_message_sizes_for_max_bytes(o.max_bytes, limit);
}

std::uint64_t time_based_seed() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const auto ns = static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count());
  return ns & kMaxSeed;
}

int corrupt_rank_from_environment(int ranks) {
#if defined(BWS_TEST_HOOKS) && BWS_TEST_HOOKS
  const char* text = std::getenv(kCorruptEnvironment);
  if (text == nullptr || *text == '\0') return -1;
  const std::string t = trim_text(text);
  std::uint64_t rank = 0;
  if (read_whole_number(t, rank) != NumberRead::Ok || rank >= static_cast<std::uint64_t>(ranks))
    throw UsageError(std::string(kCorruptEnvironment) + " (a test hook): " + quoted_input(text) + " is not a rank; allowed: 0.." +
                     std::to_string(ranks - 1));
  return static_cast<int>(rank);
#else
  (void)ranks;
  return -1;  // a build without test hooks ignores the variable (bwsurvey says so at start)
#endif
}

std::string format_seconds(double s) {
  char buf[32];
  if (s >= 1)
    std::snprintf(buf, sizeof buf, "%g s", s);
  else
    std::snprintf(buf, sizeof buf, "%g ms", s * 1e3);
  return buf;
}

}  // namespace

DeviceBuffersRequest device_request(const BeffParams& p) {
  DeviceBuffersRequest r;
  r.buffers = kDeviceBuffersPerRank;
  r.bytes_each = p.max_message_bytes();
  r.local_rank = p.local_rank;
  r.ranks_on_node = std::max(1, p.layout.ranks_on_node);
  return r;
}

BeffParams plan_beff(const Config& config, const RankLayout& layout, const DeviceBuffersProvider* device) {
  const BeffOptions options = beff_schema().read(config, layout.quick);
  BeffParams p = plan_beff(options, layout);
  if (p.path == BeffPath::Device) {
    if (device == nullptr)
      throw UsageError(options.flag(&BeffOptions::path) +
                       ": 'device' needs OpenCL, which this build of bwsurvey left out (install "
                       "ocl-icd-opencl-dev opencl-clhpp-headers pocl-opencl-icd and rebuild); allowed: host");
    p.device_name = device->check(config, device_request(p));
  }
  return p;
}

BeffParams plan_beff(const BeffOptions& o, const RankLayout& layout) {
  BeffParams p;
  p.layout = layout;
  p.message_limit_bytes = message_limit_bytes(layout);

  // Decided by value, not by whether the option was given: a run re-made
  // from a stored /config that names both must plan alike.
  p.sizes_explicit = !o.sizes_bytes.empty();
  if (p.sizes_explicit) {
    if (!o.max_bytes_is_default)
      throw UsageError(o.flag(&BeffOptions::max_bytes) + " and " + o.flag(&BeffOptions::sizes_bytes) +
                       " both given; allowed: one of them (--beff.sizes lists every size, --beff.max-bytes "
                       "sets the largest of the 21; leave it at " + o.max_bytes_default + ")");
    p.sizes_bytes = sizes_within_memory(o, layout, p.message_limit_bytes);
  } else {
    p.sizes_bytes = sizes_for_max_bytes(o, layout, p.message_limit_bytes);
  }
  p.random_rings = o.random_rings;
  p.seed_auto = !o.seed.has_value();
  p.seed = o.seed ? *o.seed : time_based_seed();
  p.min_time_seconds = o.min_time_seconds;
  p.reps = o.reps;
  p.methods = o.methods;
  p.min_efficiency = o.min_efficiency;
  p.channel_model = o.channel_model.params;
  p.channel_model_label = o.channel_model.label;
  p.huge_pages = o.huge_pages;
  p.path = o.path;
  const auto& nodes = layout.node_of_rank;
  if (layout.rank >= 0 && static_cast<std::size_t>(layout.rank) < nodes.size())
    for (std::size_t r = 0; r < static_cast<std::size_t>(layout.rank); ++r)
      if (nodes[r] == nodes[static_cast<std::size_t>(layout.rank)]) ++p.local_rank;
  p.corrupt_rank = corrupt_rank_from_environment(std::max(1, layout.size));
  const long processors = sysconf(_SC_NPROCESSORS_ONLN);
  p.node_processors = processors > 0 ? static_cast<int>(processors) : 0;
  return p;
}

std::string describe_beff(const BeffParams& p) {
  std::string methods;
  for (ExchangeMethod m : p.methods) {
    if (!methods.empty()) methods += '+';
    methods += method_name(m);
  }
  std::string text = std::to_string(p.sizes_bytes.size()) + " sizes " +
                     format_bytes(static_cast<double>(p.sizes_bytes.front())) + ".." +
                     format_bytes(static_cast<double>(p.sizes_bytes.back())) + ", natural + " +
                     std::to_string(p.layout.size > 1 ? p.random_rings : 0) + " random rings (seed " +
                     std::to_string(p.seed) + "), " + methods + ", " + std::to_string(p.reps) +
                     " repetitions of >= " + format_seconds(p.min_time_seconds) +
                     (p.huge_pages ? ", 2 MiB pages requested" : ", 4 KiB pages");
  if (p.path == BeffPath::Device) text += "; device path through " + p.device_name;
  if (p.corrupt_rank >= 0)
    text += "; TEST HOOK " + std::string(kCorruptEnvironment) + "=" + std::to_string(p.corrupt_rank);
  return text;
}

}  // namespace bws::beff
