#include "pmbw/PmbwEstimate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/BudgetFit.hpp"
#include "core/Errors.hpp"
#include "core/Sizes.hpp"
#include "pmbw/PmbwOptions.hpp"
#include "pmbw/PmbwSizes.hpp"

namespace bws::pmbw {
namespace {

constexpr double kTargetOverMinimum = 1.5;        // PmbwMeasure.cpp: samples aim at 1.5 x min-time
constexpr double kFirstWorkBytes = double(1ull << 30);  // PmbwMeasure.cpp: calibration starts at 1 GiB per thread
constexpr double kRecalibratedShare = 0.25;       // later points: about one in four samples once more
constexpr double kCacheOverMemory = 4;            // a cache streams ~4x as fast as memory (one thread)
constexpr double kCachedAccessSeconds = 2e-9;     // one dependent load that hits a cache
constexpr double kCachedSwapSeconds = 4e-9;       // one Sattolo step in a cache (generator, swap)
constexpr double kMemorySwapShare = 0.5;          // Sattolo's swaps overlap: half a dependent load each
constexpr double kCacheLineBytes = 64;
constexpr double kSyncsPerSample = 3;             // Team::run and its two barriers

struct PointTimes {
  double pass = 0;     // one repeat over a thread's area
  double prepare = 0;  // the Perm cycle
};

PointTimes point_times(const PmbwRoutine& r, std::uint64_t size, int threads, const PmbwParams& p,
                       const MachineSpeed& s) {
  const PmbwThreadLayout l = thread_layout(size, threads, r.block_bytes());
  const double t = threads;
  const bool in_memory = static_cast<double>(l.test_bytes) > static_cast<double>(p.llc_bytes);
  // A thread's share of the memory: alone it gets its own rate; together at most the rank's.
  const double thread_Bps = std::min(s.thread_memory_Bps, s.memory_Bps / t);
  PointTimes times;
  const double bytes = static_cast<double>(l.thread_bytes);
  if (r.access == PmbwAccess::Scan) {
    times.pass = bytes / (in_memory ? thread_Bps : kCacheOverMemory * s.thread_memory_Bps);
  } else {
    const double steps = bytes / 8;
    // Each step loads a line; the threads together cannot load lines faster than the memory streams them.
    const double step = in_memory ? std::max(s.random_access_seconds, t * kCacheLineBytes / s.memory_Bps)
                                  : kCachedAccessSeconds;
    times.pass = steps * step;
    times.prepare = steps * (in_memory ? kMemorySwapShare * s.random_access_seconds : kCachedSwapSeconds);
  }
  return times;
}

std::string thread_counts_text(const std::vector<int>& counts) {
  if (counts.size() <= 3) {
    std::string text;
    for (int c : counts) (text += text.empty() ? "" : ",") += std::to_string(c);
    return text;
  }
  return std::to_string(counts.size()) + " counts " + std::to_string(counts.front()) + ".." +
         std::to_string(counts.back());
}

// The refusal's advice: the repetitions or the minimum time that would fit
// (with kAdviceHeadroom) with the rest as given, else which options to
// leave alone.
std::string what_would_fit(const PmbwParams& given, const PmbwFreedom& f, const MachineSpeed& s, double budget_seconds) {
  const double budget = budget_seconds / kAdviceHeadroom;
  const OptionSchema<PmbwOptions>& schema = pmbw_schema();
  auto flag = [&schema](auto field) { return "--" + schema.name_of(field); };
  PmbwParams p = given;
  for (p.reps = given.reps - 1; p.reps >= 1; --p.reps)
    if (estimate_pmbw(p, s).seconds <= budget) return flag(&PmbwOptions::reps) + " " + std::to_string(p.reps);
  p = given;
  for (double t : {0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001}) {
    if (t >= given.min_time_seconds) continue;
    p.min_time_seconds = t;
    if (estimate_pmbw(p, s).seconds <= budget) {
      char text[48];
      std::snprintf(text, sizeof text, " %g", t);
      return flag(&PmbwOptions::min_time_seconds) + text;
    }
  }
  std::string fixed;
  auto add = [&fixed](const std::string& text) { fixed += (fixed.empty() ? "" : ", ") + text; };
  if (!f.threads) add(flag(&PmbwOptions::threads));
  if (!f.sizes) add(flag(&PmbwOptions::min_bytes) + "/" + flag(&PmbwOptions::max_bytes));
  if (!f.min_time) add(flag(&PmbwOptions::min_time_seconds));
  if (!f.reps) add(flag(&PmbwOptions::reps));
  const std::string fewer = "fewer " + flag(&PmbwOptions::routines);
  return fixed.empty() ? fewer : fewer + ", or leave " + fixed + " at the default";
}

}  // namespace

TimeEstimate estimate_pmbw(const PmbwParams& p, const MachineSpeed& s) {
  const double target = kTargetOverMinimum * p.min_time_seconds;
  const double sync = kSyncsPerSample * s.thread_sync_seconds;
  double sampling = 0, calibrating = 0, preparing = 0;
  for (int threads : p.thread_counts)
    for (const PmbwRoutine* r : p.routines)
      for (std::size_t i = 0; i < p.sizes.size(); ++i) {
        const PointTimes t = point_times(*r, p.sizes[i], threads, p, s);
        const double sample = std::max(target, t.pass) + sync;
        sampling += p.reps * sample;
        preparing += t.prepare;
        if (i == 0) {
          // The first sample does 1 GiB of work per thread at this size; when that is shorter than the
          // minimum it is dropped and the next one aims at the target, else it is kept (as it lasted).
          const double thread_bytes = double(thread_layout(p.sizes[i], threads, r->block_bytes()).thread_bytes);
          const double first = std::max(1.0, std::ceil(kFirstWorkBytes / thread_bytes)) * t.pass + sync;
          calibrating += first < p.min_time_seconds ? first : std::max(0.0, first - sample);
        } else {
          calibrating += kRecalibratedShare * sample;
        }
      }
  // First touch of the buffer (pages mapped as they are written).
  const double touch = static_cast<double>(p.buffer_bytes) / s.first_touch_Bps;
  const std::size_t points = p.thread_counts.size() * p.routines.size() * p.sizes.size();
  TimeEstimate e;
  e.seconds = touch + sampling + calibrating + preparing;
  char terms[320];
  std::snprintf(terms, sizeof terms,
                "%zu points (%zu routines x %zu thread counts x %zu sizes) x %d reps of >= %g s: %s sampling + "
                "%s calibrating + %s writing Perm cycles + %s first touch",
                points, p.routines.size(), p.thread_counts.size(), p.sizes.size(), p.reps, p.min_time_seconds,
                duration_text(sampling).c_str(), duration_text(calibrating).c_str(), duration_text(preparing).c_str(),
                duration_text(touch).c_str());
  e.terms = terms;
  return e;
}

std::vector<std::uint64_t> log_even_sizes(const std::vector<std::uint64_t>& sizes, std::size_t count) {
  if (count >= sizes.size() || sizes.size() < 2) return sizes;
  count = std::max<std::size_t>(count, 2);
  const double lo = std::log(static_cast<double>(sizes.front())), hi = std::log(static_cast<double>(sizes.back()));
  std::vector<std::uint64_t> out;
  std::size_t next = 0;  // the first table index not yet passed
  for (std::size_t k = 0; k < count; ++k) {
    const double want = lo + (hi - lo) * static_cast<double>(k) / static_cast<double>(count - 1);
    // The table's size nearest to exp(want) (in log), at or after `next`.
    std::size_t best = next;
    for (std::size_t i = next; i < sizes.size(); ++i)
      if (std::abs(std::log(static_cast<double>(sizes[i])) - want) <
          std::abs(std::log(static_cast<double>(sizes[best])) - want))
        best = i;
    // Leave room for the sizes still to come.
    best = std::min(best, sizes.size() - (count - k));
    out.push_back(sizes[best]);
    next = best + 1;
  }
  return out;
}

std::string fit_pmbw_to_budget(PmbwParams& p, const PmbwFreedom& f, const MachineSpeed& s, double budget) {
  std::vector<std::uint64_t> table = p.sizes;  // pmbw's sizes as capped so far: fewer sizes are drawn from it
  const auto threads_text = [](const PmbwParams& q) { return thread_counts_text(q.thread_counts); };
  const auto sizes_text = [](const PmbwParams& q) {
    return std::to_string(q.sizes.size()) + " up to " + format_bytes(static_cast<double>(q.sizes.back()));
  };
  const auto min_time_text = [](const PmbwParams& q) {
    char text[32];
    std::snprintf(text, sizeof text, "%g s", q.min_time_seconds);
    return std::string(text);
  };
  const auto reps_text = [](const PmbwParams& q) { return std::to_string(q.reps); };
  // The largest size: the first of the table at or above `multiple` x the LLC (a point in memory stays).
  const auto cap_sizes = [&table](std::uint64_t multiple) {
    return [&table, multiple](PmbwParams& q) {
      if (q.llc_bytes == 0) return false;
      auto first = std::find_if(table.begin(), table.end(), [&](std::uint64_t b) { return b >= multiple * q.llc_bytes; });
      if (first == table.end() || first + 1 == table.end()) return false;
      table.erase(first + 1, table.end());
      q.sizes = log_even_sizes(table, q.sizes.size());
      return true;
    };
  };
  const auto fewer_sizes = [&table](std::size_t floor) {
    return [&table, floor](PmbwParams& q) {
      if (q.sizes.size() <= floor) return false;
      q.sizes = log_even_sizes(table, q.sizes.size() - 1);
      return true;
    };
  };
  const auto fewer_reps = [](int floor) {
    return [floor](PmbwParams& q) { return q.reps > floor ? (--q.reps, true) : false; };
  };
  const auto fewer_threads = [](PmbwParams& q) {  // thread counts 1, 2, 4 .. P
    std::vector<int> counts;
    for (int n = 1; n < q.threads; n *= 2) counts.push_back(n);
    counts.push_back(q.threads);
    if (q.thread_counts.size() <= 2 || counts.size() >= q.thread_counts.size()) return false;
    q.thread_counts = counts;
    return true;
  };
  const auto shorter_min_time = [](PmbwParams& q) {
    for (double t : {0.5, 0.2, 0.1, 0.05, 0.02, kFitMinTimeFloorSeconds})
      if (t < q.min_time_seconds) return (q.min_time_seconds = t, true);
    return false;
  };
  const bool sizes_free = f.max_size && f.sizes;
  const std::vector<BudgetKnob<PmbwParams>> knobs = {
      {"threads", f.threads, fewer_threads, threads_text},
      {"sizes", sizes_free, cap_sizes(kQuickLlcMultiple), sizes_text},
      {"min-time", f.min_time, shorter_min_time, min_time_text},
      {"sizes", f.sizes, fewer_sizes(kFitSizesFloor), sizes_text},
      {"reps", f.reps, fewer_reps(2), reps_text},
      {"sizes", sizes_free, cap_sizes(2), sizes_text},
      {"reps", f.reps, fewer_reps(1), reps_text},
      {"sizes", f.sizes, fewer_sizes(kFitSizesLastFloor), sizes_text}};
  const auto estimate = [&s](const PmbwParams& q) {
    PmbwParams sized = q;
    sized.buffer_bytes = pmbw_buffer_bytes(sized);
    return estimate_pmbw(sized, s);
  };
  const auto fitted = fit_to_budget<PmbwParams>(p, budget, estimate, knobs);
  if (!fitted.fits)
    throw UsageError(over_budget_message("pmbw", fitted.asked, budget, what_would_fit(p, f, s, budget)));
  p = fitted.plan;
  p.buffer_bytes = pmbw_buffer_bytes(p);
  return fitted.changes;
}

}  // namespace bws::pmbw
