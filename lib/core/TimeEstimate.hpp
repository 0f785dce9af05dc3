#pragma once
// Run times known before they start: what a plan is expected to take, from
// its sizes, repetitions and minimum sample times and from how fast this
// machine is (MachineSpeed, measured once per rank by run/MachineProbe
// before the plans are made), and the --time-budget a plan must fit.
// Plain data and arithmetic: no clock is read here.
#include <string>

namespace bws {

// How fast this rank's part of the machine is, as the probe saw it. The
// defaults are a modest node's (used when nothing was probed: unit tests,
// planning without a probe); every field is > 0.
struct MachineSpeed {
  // Bytes read + written per second by memcpy on arrays beyond the caches,
  // counted as STREAM counts Copy (2 x bytes copied):
  double memory_Bps = 10e9;         // all of the rank's threads together
  double thread_memory_Bps = 5e9;   // one thread alone
  // Bytes per second the rank's threads together write into new pages
  // (page faults and zeroing: a buffer's first touch).
  double first_touch_Bps = 2e9;
  // One dependent load from memory beyond the caches (a pointer chase
  // through a random cycle, TLB misses included): pmbw's Perm walks.
  double random_access_seconds = 100e-9;
  // One barrier of two threads (a pinned Team's per-sample cost).
  double thread_sync_seconds = 2e-6;
  // One MPI_Barrier of all ranks (a collective benchmark's per-sample cost).
  double rank_barrier_seconds = 10e-6;
  // One exchange of 8 bytes with both ring neighbours (MPI_Sendrecv x2) in
  // an undisturbed stretch, and how much longer runs of exchanges take on
  // average than the undisturbed ones (>= 1: a loaded machine preempts the
  // ranks, and a rank that waits for a preempted one waits a time slice).
  double rank_exchange_seconds = 5e-6;
  double exchange_stretch = 1;
  // The steady clock's smallest step.
  double timer_resolution_seconds = 1e-7;
  bool probed = false;  // false: the defaults above
};

// A plan's expected duration: seconds, and the terms it came from in one
// line ("1 type x 20 reps x 10.0 GB / 12.3 GB/s"). seconds < 0: unknown.
struct TimeEstimate {
  double seconds = -1;
  std::string terms;
  bool known() const { return seconds >= 0; }
};

// --time-budget: seconds one test's plan may be estimated at; plans that
// would take longer are made smaller where their options were left at
// their defaults, else refused. 0: no budget.
inline constexpr double kDefaultTimeBudgetSeconds = 300;

// What a refusal names as fitting (a --time-budget, fewer repetitions, a
// smaller size) is for the next run, which probes the machine again and may
// find it a little slower (another job's traffic, a rank on a slower node):
// it fits this run's estimate with this much to spare, so that the run it
// suggests is accepted (tests/unit/budget_advice_test.cpp runs each one).
inline constexpr double kAdviceHeadroom = 1.25;

// "0.12 s", "12 s", "5.2 min", "3.4 h": a duration for a person.
std::string duration_text(double seconds);
// The --time-budget a refusal names: the smallest whole number of seconds
// >= kAdviceHeadroom x seconds (and >= 1).
long long budget_that_fits(double seconds);
// The refusal's one line: "--time-budget 300 s: pmbw's plan is estimated at 1.2 h (TERMS); allowed: --time-budget
// 4321 or more, or " + `smaller` (the options that make the plan smaller).
std::string over_budget_message(const std::string& test, const TimeEstimate& estimate, double budget_seconds,
                                const std::string& smaller);

}  // namespace bws
