#pragma once
// Guard rail (issue 7, item 5): a kernel that finishes faster than its
// bytes could possibly move did not do its work (HPCC_FPGA once reported
// TB/s from a kernel that failed silently). OpenCL reports no memory
// bandwidth, so the ceiling is built from what the device does report:
// each compute unit moves at most kLinesPerCycle cache lines per clock
// cycle (generous: a CPU core's two loads and a store, a GPU SM's L1),
//     ceiling = compute units x clock x cache line x kLinesPerCycle,
// and never above kAbsurdBps (no memory system delivers 100 TB/s). A rate
// above it is an error, not a result.
#include <string>

#include "bs/BsResults.hpp"
#include "core/Table.hpp"
#include "ocl/OclDeviceInfo.hpp"

namespace bws::ocl {

inline constexpr double kLinesPerCycle = 4;
inline constexpr double kAbsurdBps = 1e14;      // 100 TB/s
inline constexpr double kDefaultLineBytes = 64;  // when the device reports none

// B/s; kAbsurdBps when the device reports no clock or compute units.
double device_rate_ceiling_Bps(const OclDeviceInfo& device);

// A BS point faster than the device can move its bytes (bytes / best time
// above ceiling_Bps, or a time of 0) did not do its work: its validation
// fails (valid = 0, exit 1) and an "ocl.rate_ceiling" check row names the
// rate and the ceiling; `what` names the rank and test. Points within the
// ceiling are left alone (their bs.validation row covers them). Returns
// whether the point was within.
bool apply_bs_rate_ceiling(bs::BsPoint& point, double ceiling_Bps, Table& checks, const std::string& what);

}  // namespace bws::ocl
