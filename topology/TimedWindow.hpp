#pragma once
// The one timed window of every benchmark that runs on the Team: the team
// meets, thread 0 reads the clock, every thread runs its share, the team
// meets again, thread 0 (optionally) combines the threads' partial results
// and reads the clock. A window therefore lasts as long as its slowest
// thread. One clock for all of them: the steady clock (monotonic; a wall
// clock step during a run would make a sample negative). The ranks of a
// node meet before a window (RunContext::node_sync) where their rates must
// add up; that is the caller's, as the Team knows no ranks.
#include <chrono>

#include "topology/Team.hpp"

namespace bws::topo {

using WindowClock = std::chrono::steady_clock;

struct NoCombine {
  void operator()() const {}
};

// Inside a Team job, called by every thread of the team: one window around
// work(thread). Returns the window's seconds on thread 0 and 0 on the others.
template <class Work, class Combine = NoCombine>
double timed_window(ThreadContext& thread, Work&& work, Combine&& combine = {}) {
  WindowClock::time_point start;
  thread.barrier();
  if (thread.index() == 0) start = WindowClock::now();
  work(thread);
  thread.barrier();
  if (thread.index() != 0) return 0;
  combine();
  return std::chrono::duration<double>(WindowClock::now() - start).count();
}

// One Team run of one window: the seconds thread 0 measured.
template <class Work, class Combine = NoCombine>
double timed_team_run(Team& team, Work&& work, Combine&& combine = {}) {
  double seconds = 0;
  team.run([&](ThreadContext& thread) {
    const double s = timed_window(thread, work, combine);
    if (thread.index() == 0) seconds = s;
  });
  return seconds;
}

}  // namespace bws::topo
