#include "pmbw/PmbwMeasure.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "pmbw/PmbwPermutation.hpp"
#include "topology/Team.hpp"
#include "topology/TimedWindow.hpp"

namespace bws::pmbw {
namespace {

// pmbw aims each sample at 1.5 x the minimum (its g_avg_time) so that one
// calibration run usually suffices.
constexpr double kTargetOverMinimum = 1.5;
// At most this factor more repeats per calibration step: a sample that
// read ~0 s on a coarse clock must not jump to hours.
constexpr double kMaxGrowth = 1000.0;

unsigned char* area_of(unsigned char* buffer, const PmbwThreadLayout& layout, int thread) {
  return buffer + static_cast<std::uint64_t>(thread) * layout.spacing_bytes;
}

// One sample; the Perm kernels' end pointers go to ends[t].
double timed_run(topo::Team& team, const PmbwRoutine& routine, const PmbwThreadLayout& layout, int threads,
                 unsigned char* buffer, std::uint64_t repeats, std::vector<void*>& ends) {
  ends.assign(static_cast<std::size_t>(threads), nullptr);
  return topo::timed_team_run(team, [&](topo::ThreadContext& thread) {
    const int t = thread.index();
    if (t >= threads) return;  // the others wait at the window's barriers
    unsigned char* area = area_of(buffer, layout, t);
    if (routine.access == PmbwAccess::Perm)
      ends[static_cast<std::size_t>(t)] = routine.perm(area, layout.thread_bytes / 8, repeats);
    else
      routine.scan(area, layout.thread_bytes, repeats);
  });
}

}  // namespace

void pmbw_prepare_point(topo::Team& team, const PmbwRoutine& routine, const PmbwThreadLayout& layout, int threads,
                        unsigned char* buffer, std::uint64_t seed) {
  if (routine.access != PmbwAccess::Perm) return;
  team.run([&](topo::ThreadContext& thread) {
    const int t = thread.index();
    if (t >= threads) return;
    write_pointer_cycle(reinterpret_cast<std::uint64_t*>(area_of(buffer, layout, t)), layout.thread_bytes / 8,
                        thread_seed(seed, t));
  });
}

double pmbw_time_sample(topo::Team& team, const PmbwRoutine& routine, const PmbwThreadLayout& layout, int threads,
                        unsigned char* buffer, std::uint64_t repeats) {
  std::vector<void*> ends;
  return timed_run(team, routine, layout, threads, buffer, repeats, ends);
}

std::string pmbw_check_point(const PmbwRoutine& routine, const PmbwThreadLayout& layout, int threads,
                             const unsigned char* buffer, const std::vector<void*>& perm_ends) {
  for (int t = 0; t < threads; ++t) {
    const unsigned char* area = buffer + static_cast<std::uint64_t>(t) * layout.spacing_bytes;
    if (routine.access == PmbwAccess::Perm) {
      if (perm_ends.at(static_cast<std::size_t>(t)) != area)
        return "thread " + std::to_string(t) + "'s walk did not end where its cycle starts";
    } else if (routine.op == PmbwOp::Write) {
      std::uint64_t first = 0, last = 0;
      std::memcpy(&first, area, 8);
      std::memcpy(&last, area + layout.thread_bytes - 8, 8);
      if (first != kWritePattern || last != kWritePattern)
        return "thread " + std::to_string(t) + "'s area does not hold the written pattern";
    }
  }
  return {};
}

PmbwPoint pmbw_measure_point(topo::Team& team, const PmbwRoutine& routine, std::uint64_t area_bytes, int threads,
                             unsigned char* buffer, double min_time_seconds, int reps, std::uint64_t seed,
                             PmbwCalibration& calibration) {
  PmbwPoint p;
  p.routine = &routine;
  p.threads = threads;
  p.layout = thread_layout(area_bytes, threads, routine.block_bytes());
  p.seed = seed;
  pmbw_prepare_point(team, routine, p.layout, threads, buffer, seed);
  const auto thread_bytes = static_cast<double>(p.layout.thread_bytes);
  const double target = kTargetOverMinimum * min_time_seconds;
  auto repeats_for = [&](double work) { return static_cast<std::uint64_t>(std::max(1.0, std::ceil(work / thread_bytes))); };

  std::vector<void*> ends;
  p.repeats = repeats_for(calibration.work_bytes_per_thread);
  double seconds = timed_run(team, routine, p.layout, threads, buffer, p.repeats, ends);
  while (seconds < min_time_seconds) {
    const double growth = std::min(kMaxGrowth, target / std::max(seconds, 1e-9));
    p.repeats = std::max(p.repeats + 1, repeats_for(thread_bytes * static_cast<double>(p.repeats) * growth));
    seconds = timed_run(team, routine, p.layout, threads, buffer, p.repeats, ends);
  }
  p.seconds.push_back(seconds);
  p.problem = pmbw_check_point(routine, p.layout, threads, buffer, ends);
  for (int s = 1; s < reps; ++s) {
    p.seconds.push_back(timed_run(team, routine, p.layout, threads, buffer, p.repeats, ends));
    if (p.problem.empty()) p.problem = pmbw_check_point(routine, p.layout, threads, buffer, ends);
  }
  p.valid = p.problem.empty();
  // The next size starts from the work that would take the target time now.
  const double fastest = *std::min_element(p.seconds.begin(), p.seconds.end());
  calibration.work_bytes_per_thread = thread_bytes * static_cast<double>(p.repeats) * target / std::max(fastest, 1e-9);
  return p;
}

}  // namespace bws::pmbw
