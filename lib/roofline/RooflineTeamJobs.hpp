#pragma once
// What the roofline does on the pinned Team. Every timed sample: the ranks
// of the node meet (context.node_sync), the team meets, thread 0 reads the
// steady clock, every thread runs its part, the team meets again and
// thread 0 reads the clock: a sample is the slowest thread's time, and the
// node's ranks run each sample together, so their rates add up. Calibration
// and warm-up runs do not meet the node (their counts differ per rank).
#include <cstdint>

#include "core/RunContext.hpp"
#include "roofline/FmaKernels.hpp"
#include "roofline/RooflineMeasurement.hpp"
#include "roofline/RooflinePlan.hpp"

namespace bws::topo {
class Team;
}

namespace bws::roofline {

// Doubles (at most x16 per step) the loop count from kFmaMinIterations
// until one team run lasts min_time_seconds, then times `reps` runs.
RooflineMeasurement measure_fma(topo::Team& team, RunContext& context, VectorIsa isa, StreamType type,
                                double min_time_seconds, int reps);

// Each thread first-touches its own A, B and C (zeros), so they lie on its NUMA node.
void first_touch_gemm(topo::Team& team, const RooflineParams& params, unsigned char* buffer);
// Each thread fills its A and B, multiplies once (warm-up), then `reps`
// timed multiplies; then every thread checks 9 entries of its C.
RooflineMeasurement measure_gemm(topo::Team& team, RunContext& context, const RooflineParams& params,
                                 unsigned char* buffer, StreamType type);

// a = 0, b = 2, c = 1 (first touch by the thread that streams each share).
void first_touch_triad(topo::Team& team, const RooflineParams& params, unsigned char* buffer);
// STREAM's Triad a = b + 3c (its kernels, normal or non-temporal stores):
// one warm-up, `reps` timed runs; then every a[j] must be 5.
RooflineMeasurement measure_triad(topo::Team& team, RunContext& context, const RooflineParams& params,
                                  unsigned char* buffer);

}  // namespace bws::roofline
