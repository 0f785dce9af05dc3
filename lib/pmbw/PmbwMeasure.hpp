#pragma once
// One pmbw point on the pinned Team: `threads` of its threads each run the
// routine on their own area (thread t at t x spacing), the others wait.
// Timing as pmbw does it: barrier, clock, every thread's kernel with its
// repeat loop, barrier, clock. The repeat count grows until one sample
// lasts at least the minimum time; that sample and reps-1 more at the
// same count are kept.
#include <cstdint>
#include <string>
#include <vector>

#include "pmbw/PmbwRoutines.hpp"
#include "pmbw/PmbwSizes.hpp"

namespace bws::topo {
class Team;
}

namespace bws::pmbw {

struct PmbwPoint {
  const PmbwRoutine* routine = nullptr;
  int threads = 1;
  PmbwThreadLayout layout;
  std::uint64_t repeats = 0;
  std::uint64_t seed = 0;         // the run's seed (Perm: thread t walks thread_seed(seed, t))
  std::vector<double> seconds;    // the kept samples
  bool valid = true;
  std::string problem;            // why not valid
  // Bytes all threads touch in one sample: pmbw's testvol.
  std::uint64_t bytes() const { return layout.test_bytes * repeats; }
  // Loads or stores in one sample, all threads: pmbw's testaccess.
  std::uint64_t accesses() const { return bytes() / routine->access_bytes(); }
};

// pmbw's calibration state, carried from one size to the next of the same
// routine and thread count: bytes of work per thread that last took about
// the target time (pmbw starts at 1 GiB).
struct PmbwCalibration {
  double work_bytes_per_thread = static_cast<double>(1ull << 30);
};

// Writes the Perm cycles of the point's areas (each thread its own area) or,
// for Scan routines, nothing: their areas were first-touched in prepare.
void pmbw_prepare_point(topo::Team& team, const PmbwRoutine& routine, const PmbwThreadLayout& layout, int threads,
                        unsigned char* buffer, std::uint64_t seed);
// Seconds of one sample (barrier to barrier) with `repeats` repeats.
double pmbw_time_sample(topo::Team& team, const PmbwRoutine& routine, const PmbwThreadLayout& layout, int threads,
                        unsigned char* buffer, std::uint64_t repeats);
// Calibrates, samples and checks one point.
PmbwPoint pmbw_measure_point(topo::Team& team, const PmbwRoutine& routine, std::uint64_t area_bytes, int threads,
                             unsigned char* buffer, double min_time_seconds, int reps, std::uint64_t seed,
                             PmbwCalibration& calibration);
// After a sample: Perm walks ended where they started (the cycle was walked
// whole), Write areas hold the pattern at their first and last word.
// Returns an empty string when all is well.
std::string pmbw_check_point(const PmbwRoutine& routine, const PmbwThreadLayout& layout, int threads,
                             const unsigned char* buffer, const std::vector<void*>& perm_ends);

}  // namespace bws::pmbw
