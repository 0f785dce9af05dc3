#pragma once
// b_eff's run time, known before it starts. Per ring (natural, random, and
// the 2-rank reference ring from 3 ranks on), size L and method:
//   calibration   the loop grows (x100 at most per step) until a run lasts min-time, then 20% more:
//                 about 1.3 x min-time, plus a barrier and an all-reduce per step
//   samples       reps x (max(1.2 x min-time, one exchange) + a barrier + stamping and checking 4 x L bytes)
//   + 3 untimed exchanges (first contact, warm-up, check after) and 3 reductions per size
// one exchange = the probed 8-byte ring exchange + 2 x L / the slower of a
// thread's memcpy rate (shared memory) and the rate at which the ring's
// slowest rank sent 2 x the largest L in the probe before the run (across
// nodes the network is slower: it matters when one exchange outlasts
// min-time, 1 MiB on a 400 Mbit/s link takes 42 ms). Every run of exchanges
// is stretched by the probe's stretch: on a loaded machine a rank waits for
// a preempted neighbour, and runs last longer than their calibration. Plus
// the first touch of the four buffers of the largest L.
#include "beff/BeffPlan.hpp"
#include "core/TimeEstimate.hpp"

namespace bws::beff {

TimeEstimate estimate_beff(const BeffParams& params, const MachineSpeed& speed);

}  // namespace bws::beff
