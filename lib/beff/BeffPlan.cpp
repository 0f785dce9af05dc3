#include "beff/BeffPlan.hpp"

#include "beff/BeffChannelCheck.hpp"

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

constexpr std::uint64_t kMaxSeed = (std::uint64_t{1} << 63) - 1;  // seeds are stored as 64-bit signed integers

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

std::vector<std::uint64_t> parse_size_list(const std::string& text, const RankLayout& layout, std::uint64_t limit) {
  const std::string key = option_flag(kSizesOption);
  const std::string allowed = allowed_sizes(limit) + " (" + memory_reason(layout, limit) + ")";
  const std::vector<std::string> items = split_comma_list(text);
  if (std::all_of(items.begin(), items.end(), [](const std::string& s) { return s.empty(); }))
    throw UsageError(key + ": '" + text + "' is an empty size list; give comma-separated sizes such as 8,1K,64K; " +
                     allowed);
  std::vector<std::uint64_t> sizes;
  for (const std::string& item : items) {
    if (item.empty())
      throw UsageError(key + ": '" + text + "' has an empty entry; give comma-separated sizes; " + allowed);
    std::uint64_t bytes = 0;
    try {
      bytes = parse_size(item, key);
    } catch (const UsageError& e) {
      throw UsageError(std::string(e.what()) + "; " + allowed);
    }
    if (bytes > limit)
      throw UsageError(key + ": '" + item + "' is above what memory allows; " + allowed);
    if (std::find(sizes.begin(), sizes.end(), bytes) != sizes.end())
      throw UsageError(key + ": '" + item + "' is given twice (" + std::to_string(bytes) +
                       " bytes); every size counts once in the mean; " + allowed);
    sizes.push_back(bytes);
  }
  std::sort(sizes.begin(), sizes.end());
  return sizes;
}

std::vector<std::uint64_t> sizes_for_max_bytes(const std::string& text, const RankLayout& layout,
                                               std::uint64_t limit) {
  const std::string key = option_flag(kMaxBytesOption);
  const std::string allowed = "allowed: " + std::to_string(model::beff_smallest_max_bytes()) + ".." +
                              std::to_string(limit) + " bytes (" + memory_reason(layout, limit) + ")";
  std::uint64_t max_bytes = 0;
  try {
    max_bytes = parse_size(text, key);
  } catch (const UsageError& e) {
    throw UsageError(std::string(e.what()) + "; " + allowed);
  }
  if (max_bytes > limit) throw UsageError(key + ": '" + trim_text(text) + "' is above what memory allows; " + allowed);
  // Throws for <= 4096 (a would be <= 1) and values too close to 4096.
  return model::beff_message_sizes_for_max_bytes(max_bytes, limit);
}

bool max_bytes_is_default(const std::string& text) {
  try {
    return parse_size(text, option_flag(kMaxBytesOption)) == parse_size(kMaxBytesDefault, option_flag(kMaxBytesOption));
  } catch (const UsageError&) {
    return false;
  }
}

std::vector<ExchangeMethod> parse_methods(const std::string& text) {
  const std::string allowed = "; allowed: sendrecv, nonblocking, or both as a comma list";
  std::vector<ExchangeMethod> methods;
  for (const std::string& item : split_comma_list(text)) {
    if (item.empty()) throw UsageError(option_flag(kMethodsOption) + ": '" + text + "' has an empty entry" + allowed);
    const auto method = method_from_name(lower_text(item));
    if (!method) throw UsageError(option_flag(kMethodsOption) + ": unknown method '" + item + "'" + allowed);
    if (std::find(methods.begin(), methods.end(), *method) == methods.end()) methods.push_back(*method);
  }
  return methods;
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

void add_beff_options(boost::program_options::options_description& desc) {
  add_text_option(desc, kMaxBytesOption, kMaxBytesDefault,
                  "b_eff: the largest message size L; the 21 sizes are 1 B..4 KiB doubling, then 4 KiB*a^k "
                  "(k=1..8) with a = (max/4 KiB)^(1/8), so 1M gives a = 2 (bytes; K/M/G = x1024); allowed "
                  "4104 up to what memory allows: 4 buffers of L per rank, all ranks of a node within 40% of "
                  "its memory");
  add_text_option(desc, kSizesOption, kSizesDefault,
                  "b_eff: an explicit comma list of message sizes instead of the 21 (e.g. 8,1K,1M; bytes, "
                  "K/M/G = x1024); each 1 byte up to what memory allows, no size twice; empty = the 21 sizes");
  add_text_option(desc, kRandomRingsOption, kRandomRingsDefault,
                  "b_eff: random rings measured after the natural one (rank order); allowed 0..1000");
  add_text_option(desc, kSeedOption, kSeedDefault,
                  "b_eff: seed of the random rings (std::mt19937_64 on rank 0): 0..2^63-1, or auto (from the "
                  "clock); the seed used is stored in /beff/summary and /beff/rings");
  add_text_option(desc, kMinTimeOption, kMinTimeDefault,
                  "b_eff: seconds one sample (looplength exchanges) lasts at least, the loop length calibrated "
                  "per size (--quick with the default: 0.001); allowed > 0 and <= 60");
  add_text_option(desc, kRepsOption, kRepsDefault,
                  "b_eff: timed repetitions per ring, size and method, each after a barrier; the best counts; "
                  "allowed 1..100000");
  add_text_option(desc, kMethodsOption, kMethodsDefault,
                  "b_eff: exchange methods, the better kept per size: sendrecv (two MPI_Sendrecv), nonblocking "
                  "(MPI_Irecv x2, MPI_Isend x2, MPI_Waitall), or both as a comma list");
  add_text_option(desc, kMinEfficiencyOption, kMinEfficiencyDefault,
                  "b_eff: the linear-scaling check passes when E(n) = b_eff(n) / (n x per-rank b_eff of a 2-rank "
                  "ring) is at least this; allowed > 0 and <= 1");
  add_text_option(desc, kModelOption, kModelDefault,
                  "b_eff: check the natural ring's b_eff against seed 002's channel model, expected = ranks x mean "
                  "over the sizes of 2L / (s (ceil(L/(c w))/f + lambda)); passes when measured/expected is in "
                  "0.90..1.05 (a 'model' check: exit 3); off, 520n (BittWare 520N as synthesized: c=2, w=32 B, "
                  "f=156.25e6 Hz, lambda=520e-9 s, s=2), 520n-ideal (s=1), or c,w,f,lambda[,s] (channels, bytes per "
                  "channel and clock, Hz, seconds)");
  add_text_option(desc, kPathOption, kPathDefault,
                  "b_eff: where messages live: host (host memory, as HPCC) or device (OpenCL device buffers: each "
                  "message is read from the device, sent, received and written to the neighbour's device inside "
                  "the timed loop, HPCC_FPGA's PCIe path; the device is chosen by --ocl.platform and --ocl.device, "
                  "per node by local rank); allowed: host, device (device needs a build with OpenCL)");
  add_text_option(desc, kHugePagesOption, kHugePagesDefault,
                  "b_eff: request 2 MiB pages for the message buffers (on) or leave 4 KiB pages (off: what a "
                  "plain malloc gives, as hpcc and OSU use); allowed: on, off");
}

const char* path_name(BeffPath path) { return path == BeffPath::Host ? "host" : "device"; }

DeviceBuffersRequest device_request(const BeffParams& p) {
  DeviceBuffersRequest r;
  r.buffers = kDeviceBuffersPerRank;
  r.bytes_each = p.max_message_bytes();
  r.local_rank = p.local_rank;
  r.ranks_on_node = std::max(1, p.layout.ranks_on_node);
  return r;
}

BeffParams plan_beff(const Config& config, const RankLayout& layout, const DeviceBuffersProvider* device) {
  BeffParams p;
  p.layout = layout;
  p.message_limit_bytes = message_limit_bytes(layout);

  // Decided by value, not by whether the option was given: the stored
  // /config names every option, and a run re-made from it must plan alike.
  const std::string sizes_text = option_text(config, kSizesOption, kSizesDefault);
  p.sizes_explicit = !trim_text(sizes_text).empty();
  if (p.sizes_explicit) {
    if (!max_bytes_is_default(option_text(config, kMaxBytesOption, kMaxBytesDefault)))
      throw UsageError(option_flag(kMaxBytesOption) + " and " + option_flag(kSizesOption) +
                       " both given; allowed: one of them (--beff.sizes lists every size, --beff.max-bytes "
                       "sets the largest of the 21; leave it at " + kMaxBytesDefault + ")");
    p.sizes_bytes = parse_size_list(sizes_text, layout, p.message_limit_bytes);
  } else {
    p.sizes_bytes = sizes_for_max_bytes(option_text(config, kMaxBytesOption, kMaxBytesDefault), layout,
                                        p.message_limit_bytes);
  }

  p.random_rings = static_cast<int>(
      parse_whole_number(option_text(config, kRandomRingsOption, kRandomRingsDefault), kRandomRingsOption, 0, kMaxRandomRings));

  const std::string seed_text = trim_text(option_text(config, kSeedOption, kSeedDefault));
  p.seed_auto = lower_text(seed_text) == "auto";
  if (p.seed_auto) {
    p.seed = time_based_seed();
  } else {
    try {
      p.seed = parse_whole_number(seed_text, kSeedOption, 0, kMaxSeed);
    } catch (const UsageError& e) {
      throw UsageError(std::string(e.what()) + " or auto");
    }
  }

  const std::string time_allowed = "> 0 and <= 60 seconds";
  p.min_time_seconds = parse_real_number(option_text(config, kMinTimeOption, kMinTimeDefault), kMinTimeOption, time_allowed);
  if (!(p.min_time_seconds > 0) || p.min_time_seconds > kMaxMinTimeSeconds)
    throw UsageError(option_flag(kMinTimeOption) + ": '" + option_text(config, kMinTimeOption, kMinTimeDefault) +
                     "' is out of range; allowed: " + time_allowed);
  if (layout.quick && option_defaulted(config, kMinTimeOption)) p.min_time_seconds = kQuickMinTimeSeconds;

  p.reps = static_cast<int>(parse_whole_number(option_text(config, kRepsOption, kRepsDefault), kRepsOption, 1, kMaxReps));
  p.methods = parse_methods(option_text(config, kMethodsOption, kMethodsDefault));

  const std::string efficiency_allowed = "> 0 and <= 1 (a fraction of linear scaling)";
  p.min_efficiency = parse_real_number(option_text(config, kMinEfficiencyOption, kMinEfficiencyDefault),
                                kMinEfficiencyOption, efficiency_allowed);
  if (!(p.min_efficiency > 0) || p.min_efficiency > 1)
    throw UsageError(option_flag(kMinEfficiencyOption) + ": '" +
                     option_text(config, kMinEfficiencyOption, kMinEfficiencyDefault) +
                     "' is out of range; allowed: " + efficiency_allowed);

  const std::string model_text = option_text(config, kModelOption, kModelDefault);
  p.channel_model = parse_channel_model(model_text);
  if (p.channel_model) p.channel_model_label = lower_text(trim_text(model_text));

  p.huge_pages =
      parse_flag_text(option_text(config, kHugePagesOption, kHugePagesDefault), kHugePagesOption, "on, off");

  const std::string path = lower_text(trim_text(option_text(config, kPathOption, kPathDefault)));
  if (path == "device") {
    p.path = BeffPath::Device;
  } else if (path != "host") {
    throw UsageError(option_flag(kPathOption) + ": unknown path '" + option_text(config, kPathOption, kPathDefault) +
                     "'; allowed: host, device");
  }
  const auto& nodes = layout.node_of_rank;
  if (layout.rank >= 0 && static_cast<std::size_t>(layout.rank) < nodes.size())
    for (std::size_t r = 0; r < static_cast<std::size_t>(layout.rank); ++r)
      if (nodes[r] == nodes[static_cast<std::size_t>(layout.rank)]) ++p.local_rank;
  if (p.path == BeffPath::Device) {
    if (device == nullptr)
      throw UsageError(option_flag(kPathOption) +
                       ": 'device' needs OpenCL, which this build of bwsurvey left out (install "
                       "ocl-icd-opencl-dev opencl-clhpp-headers pocl-opencl-icd and rebuild); allowed: host");
    p.device_name = device->check(config, device_request(p));
  }

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
