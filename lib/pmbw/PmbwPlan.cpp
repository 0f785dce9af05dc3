#include "pmbw/PmbwPlan.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "core/Errors.hpp"
#include "core/OptionText.hpp"
#include "core/Sizes.hpp"
#include "pmbw/PmbwEstimate.hpp"
#include "pmbw/PmbwSizes.hpp"
#include "topology/Topology.hpp"

namespace bws::pmbw {
namespace {

std::string joined_names(const std::vector<const PmbwRoutine*>& routines) {
  std::string s;
  for (const PmbwRoutine* r : routines) {
    if (!s.empty()) s += ", ";
    s += r->name;
  }
  return s.empty() ? "none" : s;
}

}  // namespace

// "all", or a comma list of routine names; a name may also be a substring
// filter prefixed with '~' (pmbw's -f): ~Scan, ~512.
std::vector<const PmbwRoutine*> parse_routines(const PmbwOptions& o, const PmbwCpuFeatures& cpu) {
  const std::string flag = o.flag(&PmbwOptions::routines);
  const std::vector<const PmbwRoutine*> runnable = runnable_routines(cpu);
  if (pmbw_routines().empty())
    throw UsageError(flag + ": this build has no pmbw kernels for " + build_architecture() +
                     " (they are x86-64 assembly); allowed: run pmbw on an x86-64 node");
  const std::string available = "; available on this CPU: " + joined_names(runnable);
  std::vector<const PmbwRoutine*> chosen;
  for (const std::string& raw : split_comma_list(o.routines)) {
    const std::string token = trim_text(raw);
    if (lower_text(token) == "all") {
      chosen.insert(chosen.end(), runnable.begin(), runnable.end());
      continue;
    }
    if (!token.empty() && token[0] == '~') {
      const std::string part = token.substr(1);
      const std::size_t before = chosen.size();
      for (const PmbwRoutine* r : runnable)
        if (std::string(r->name).find(part) != std::string::npos) chosen.push_back(r);
      if (chosen.size() == before)
        throw UsageError(flag + ": no routine this CPU runs contains '" + part + "'" + available);
      continue;
    }
    const PmbwRoutine* r = find_routine(token);
    if (!r)
      throw UsageError(flag + ": unknown routine '" + token + "'" + available);
    if (!cpu.supports(r->isa))
      throw UsageError(flag + ": " + unavailable_reason(*r, cpu) + available);
    chosen.push_back(r);
  }
  if (chosen.empty()) throw UsageError(flag + ": no routine given" + available);
  // Table order, no repeats.
  std::vector<const PmbwRoutine*> ordered;
  for (const PmbwRoutine& r : pmbw_routines())
    if (std::find(chosen.begin(), chosen.end(), &r) != chosen.end()) ordered.push_back(&r);
  return ordered;
}

std::vector<int> parse_thread_counts(const PmbwOptions& o, int max_threads) {
  const std::string flag = o.flag(&PmbwOptions::threads);
  const std::string& text_in = o.threads;
  const std::string allowed = "; allowed: auto, a range (1..N) or a list (1,2,4) of counts from 1 to the rank's " +
                              std::to_string(max_threads) + (max_threads == 1 ? " thread" : " threads") +
                              " (--threads)";
  const std::string text = lower_text(trim_text(text_in));
  std::vector<int> counts;
  auto number = [&](const std::string& t) {
    const std::string s = trim_text(t);
    if (s.empty() || s.size() > 6 || !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); }))
      throw UsageError(flag + ": '" + text_in + "' is not a thread count list" + allowed);
    std::uint64_t count = 0;
    read_whole_number(s, count);  // at most 6 digits, checked above
    const int n = static_cast<int>(count);
    if (n < 1 || n > max_threads)
      throw UsageError(flag + ": " + s + " threads is out of range" + allowed);
    return n;
  };
  auto add_range = [&](int lo, int hi) {
    if (o.quadratic) {
      for (int n = lo; n <= hi; n *= 2) counts.push_back(n);
      counts.push_back(hi);
    } else {
      for (int n = lo; n <= hi; ++n) counts.push_back(n);
    }
  };
  if (text == "auto") {
    add_range(1, max_threads);
  } else {
    for (const std::string& item : split_comma_list(text)) {
      const std::string t = trim_text(item);
      if (const auto range = split_range_item(t)) {
        const int lo = number(range->first), hi = number(range->second);
        if (lo > hi) throw UsageError(flag + ": range '" + t + "' is empty" + allowed);
        add_range(lo, hi);
      } else {
        counts.push_back(number(t));
      }
    }
  }
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  if (counts.empty()) throw UsageError(flag + ": no thread count given" + allowed);
  return counts;
}

bool listing_requested(const PmbwOptions& o) {
  return lower_text(trim_text(o.routines)) == "list";
}

std::string routine_listing(const PmbwCpuFeatures& cpu) {
  std::string text = "pmbw routines of this build (" + std::string(build_architecture()) +
                     "); this CPU and OS support: " + describe_features(cpu) + "\n";
  if (pmbw_routines().empty()) return text + "  none: the pmbw kernels are x86-64 assembly\n";
  for (const PmbwRoutine& r : pmbw_routines()) {
    char line[160];
    std::snprintf(line, sizeof line, "  %-30s %-9s %s\n", r.name, isa_name(r.isa),
                  cpu.supports(r.isa) ? "available" : "not available on this CPU");
    text += line;
  }
  return text;
}

PmbwParams plan_pmbw(const Config& config, const NodeContext& node) {
  const PmbwOptions options = pmbw_schema().read(config, node.quick);
  PmbwParams p = plan_pmbw(options, node);
  PmbwFreedom freedom;
  freedom.threads = options.defaulted(&PmbwOptions::threads);
  freedom.max_size = !options.max_bytes.has_value();
  freedom.sizes = freedom.max_size && !options.min_bytes_given;
  freedom.min_time = options.defaulted(&PmbwOptions::min_time_seconds);
  freedom.reps = options.defaulted(&PmbwOptions::reps);
  const PmbwParams asked = p;
  p.fitted = fit_pmbw_to_budget(p, freedom, node.speed, node.time_budget_seconds);
  // What the file's /config records (the sizes follow from the thread counts and the node's cache).
  if (p.reps != asked.reps) p.chosen[pmbw_schema().name_of(&PmbwOptions::reps)] = std::to_string(p.reps);
  if (p.min_time_seconds != asked.min_time_seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", p.min_time_seconds);
    p.chosen[pmbw_schema().name_of(&PmbwOptions::min_time_seconds)] = text;
  }
  return p;
}

PmbwParams plan_pmbw(const PmbwOptions& o, const NodeContext& node) {
  PmbwParams p;
  p.threads = std::max(1, node.threads);
  p.ranks_on_node = std::max(1, node.ranks_on_node);
  const topo::TopologyInfo& info = node.topology.info();
  const PmbwCpuFeatures cpu = detect_cpu_features();

  p.routines = parse_routines(o, cpu);
  p.thread_counts = parse_thread_counts(o, p.threads);
  p.min_time_seconds = o.min_time_seconds;
  p.reps = o.reps;
  p.seed = o.seed;
  p.stats_path = o.stats_path;

  p.min_size = o.min_bytes;
  p.max_size_auto = !o.max_bytes.has_value();
  const double per_rank_memory = static_cast<double>(info.node_memory_bytes) / p.ranks_on_node;
  const bool memory_known = info.node_memory_bytes > 0;
  if (p.max_size_auto) {
    p.max_size = kAutoMaxSizeBytes;
    if (node.quick && info.llc_bytes > 0) {
      // The smallest table size at or above 4x the LLC: one point in RAM.
      for (std::uint64_t s : pmbw_size_table(UINT64_MAX >> 2)) {
        if (s >= kQuickLlcMultiple * info.llc_bytes) {
          p.max_size = std::min(p.max_size, s);
          break;
        }
      }
    }
    if (memory_known)
      while (p.max_size > p.min_size && static_cast<double>(p.max_size) * 1.01 > kAutoMemoryFraction * per_rank_memory)
        p.max_size /= 2;
    p.max_size = std::max(p.max_size, p.min_size);
  } else {
    p.max_size = *o.max_bytes;
  }
  const std::string min_flag = o.flag(&PmbwOptions::min_bytes), max_flag = o.flag(&PmbwOptions::max_bytes);
  if (p.min_size > p.max_size)
    throw UsageError(min_flag + " " + format_bytes(static_cast<double>(p.min_size)) + " is above " + max_flag + " " +
                     format_bytes(static_cast<double>(p.max_size)) + "; allowed: " + min_flag + " <= " + max_flag);
  p.sizes = node.quick && !o.min_bytes_given && p.max_size_auto
                ? quick_sizes(p.min_size, p.max_size)
                : sizes_between(p.min_size, p.max_size);
  if (p.sizes.empty())
    throw UsageError(min_flag + " .. " + max_flag + ": " +
                     format_bytes(static_cast<double>(p.min_size)) + " .. " +
                     format_bytes(static_cast<double>(p.max_size)) +
                     " holds no size of pmbw's table (1 KiB, 2 KiB, 3 KiB, 4 KiB, 6 KiB ...); allowed: a range that "
                     "contains one");

  p.llc_bytes = info.llc_bytes;
  p.buffer_bytes = pmbw_buffer_bytes(p);
  const double limit = (p.max_size_auto ? kAutoMemoryFraction : kMaxMemoryFraction) * per_rank_memory;
  if (memory_known && static_cast<double>(p.buffer_bytes) > limit)
    throw UsageError(max_flag + " " + format_bytes(static_cast<double>(p.max_size)) +
                     ": the areas need " + format_bytes(static_cast<double>(p.buffer_bytes)) + " on each of " +
                     std::to_string(p.ranks_on_node) + (p.ranks_on_node == 1 ? " rank" : " ranks") +
                     "; this node has " + format_bytes(static_cast<double>(info.node_memory_bytes)) +
                     " (allowed: up to " + format_bytes(limit) + " per rank)");
  return p;
}

std::uint64_t pmbw_buffer_bytes(const PmbwParams& p) {
  std::uint64_t bytes = 0;
  for (const PmbwRoutine* r : p.routines)
    for (std::uint64_t s : p.sizes)
      for (int t : p.thread_counts) bytes = std::max(bytes, thread_layout(s, t, r->block_bytes()).buffer_bytes);
  return bytes;
}

std::string describe_pmbw(const PmbwParams& p) {
  std::string threads;
  for (int t : p.thread_counts) {  // (appends, not chained +: gcc 12 warns falsely on the latter)
    if (!threads.empty()) threads += ',';
    threads += std::to_string(t);
  }
  char text[256];
  std::snprintf(text, sizeof text, "%zu routines, %zu sizes %s .. %s%s, threads %s, %d reps of >= %g s, "
                "%.0f MiB/rank",
                p.routines.size(), p.sizes.size(), format_bytes(static_cast<double>(p.sizes.front())).c_str(),
                format_bytes(static_cast<double>(p.sizes.back())).c_str(), p.max_size_auto ? " (auto)" : "",
                threads.c_str(), p.reps, p.min_time_seconds, static_cast<double>(p.buffer_bytes) / (1 << 20));
  if (!p.fitted.empty()) return std::string(text) + " (fitted to --time-budget: " + p.fitted + ")";
  return text;
}

}  // namespace bws::pmbw
