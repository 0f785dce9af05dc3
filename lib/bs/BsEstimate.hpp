#pragma once
// BS1-BS7's run time, known before it starts. Per rank and backend:
//   BS1-BS5, per point: (reps + 1) x bytes / rate           the warm-up and the timed repetitions
//                       + 3 x bytes / rate                  initialised twice, run once more for the check
//                       + bytes / (half a thread's rate)    the compensated host check (one thread)
//                       + (reps + 1) x 3 thread barriers
//   BS6/BS7, per degree and K: the mesh built on the host (per local node) and placed, then per test the
//                       same terms with the gather/scatter bytes
//   + 1000 empty calls (T0) + the first touch of the buffers.
// rate = the probe's memory bandwidth of the rank's threads, or 4x that
// for a point within the last-level cache. An OpenCL device is taken to be
// as fast as the host.
#include "bs/BsPlan.hpp"
#include "core/TimeEstimate.hpp"

namespace bws::bs {

TimeEstimate estimate_bs(const BsParams& params, std::uint64_t llc_bytes, const MachineSpeed& speed);

}  // namespace bws::bs
