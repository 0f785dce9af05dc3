#pragma once
// Guard rail: a kernel that finishes faster than its
// bytes could possibly move did not do its work (HPCC_FPGA once reported
// TB/s from a kernel that failed silently). OpenCL reports no memory
// bandwidth, so the ceiling is built from what the device does report:
// each compute unit moves at most kLinesPerCycle cache lines per clock
// cycle (generous: a CPU core's two loads and a store, a GPU SM's L1),
//     ceiling = compute units x clock x cache line x kLinesPerCycle,
// and never above kAbsurdBps (no memory system delivers 100 TB/s). A rate
// above it is an error, not a result (bs::apply_bs_rate_ceiling,
// stream/StreamResults.cpp apply it).
#include <string>

#include "ocl/OclDeviceInfo.hpp"

namespace bws::ocl {

inline constexpr double kLinesPerCycle = 4;
inline constexpr double kAbsurdBps = 1e14;      // 100 TB/s
inline constexpr double kDefaultLineBytes = 64;  // when the device reports none

// B/s; kAbsurdBps when the device reports no clock or compute units.
double device_rate_ceiling_Bps(const OclDeviceInfo& device);

}  // namespace bws::ocl
