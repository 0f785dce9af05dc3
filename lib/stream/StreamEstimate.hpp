#pragma once
// STREAM's run time, known before it starts. Per rank, per backend and type:
//   reps x (2 + 2 + 3 + 3) x elements x sizeof(type) / memory bandwidth   the four kernels' bytes
//   + reps x 4 x (node barrier + thread barriers)                         each kernel starts after a barrier
//   + (5 + 3) x elements x sizeof(type) / memory bandwidth               initialising and validating the arrays
// plus the first touch of the buffer. The bandwidth is the probe's memcpy
// rate of all the rank's threads (MachineSpeed::memory_Bps), counted as
// STREAM counts bytes; an OpenCL device is taken to be as fast as the host.
#include <cstdint>
#include <vector>

#include "core/TimeEstimate.hpp"
#include "stream/StreamDevice.hpp"

namespace bws::stream {

// elements[d][t]: per array, on backend d, of type common.types[t];
// allocated_bytes: all backends' buffers (first touch).
TimeEstimate estimate_stream(const StreamCommonParams& common, const std::vector<std::vector<std::uint64_t>>& elements,
                             std::uint64_t allocated_bytes, const MachineSpeed& speed);

}  // namespace bws::stream
