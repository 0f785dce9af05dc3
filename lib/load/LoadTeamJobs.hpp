#pragma once
// What the load benchmark does on the pinned Team. Every job splits the
// array with ThreadContext::share(n, 8) in whole cache lines, the same way
// each time, so each thread streams exactly the pages it first touched
// (NUMA locality).
#include <cstddef>
#include <functional>
#include <vector>

#include "core/RunContext.hpp"
#include "load/LoadKernels.hpp"

namespace bws::topo {
class Team;
}

namespace bws::load {

// One kernel's passes on one rank.
struct KernelMeasurement {
  LoadKernel kernel = LoadKernel::Load;
  std::vector<double> seconds;  // every pass, the warm-up first
  // load: the last pass's sum, or the first that differed from the expected
  // one; store and update: the array's sum after the passes.
  double checksum = 0;
};

// Writes the initial values, each thread its share (first touch in prepare).
void initialize_on_team(topo::Team& team, double* a, std::size_t n);

// The array's sum, each thread summing its share; added in thread order.
double sum_on_team(topo::Team& team, const double* a, std::size_t n);

// `passes` timed passes of one kernel. Before each the node's ranks meet
// (context.node_sync) and then the team; thread 0 reads the clock after the
// team's barrier and after the barrier that follows the kernel, so a pass
// takes as long as its slowest thread. after_pass(k) follows pass k.
KernelMeasurement measure_on_team(topo::Team& team, RunContext& context, double* a, std::size_t n,
                                  LoadKernel kernel, int passes, const std::function<void(int)>& after_pass);

}  // namespace bws::load
