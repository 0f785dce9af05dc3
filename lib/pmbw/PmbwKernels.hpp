#pragma once
// The pmbw routines' kernels, each with its repeat loop in one inline
// assembly block so that no compiler can drop the loads or reshape the loop.
// Scan kernels walk [area, area + bytes) `repeats` times; bytes must be a
// positive multiple of the routine's block (access bytes x unroll factor)
// and area aligned to the access size. Perm kernels follow a pointer chain
// for exactly `steps` loads per repeat and return where they stopped.
// Declared for x86-64 only; PmbwRoutines.cpp offers none elsewhere.
#include <cstdint>

namespace bws::pmbw {

using ScanKernel = void (*)(void* area, std::uint64_t bytes, std::uint64_t repeats);
// The same loop as a read kernel with each load replaced by an add of the
// same operand into 64-bit lanes (32-bit: one 32-bit sum in lanes[0]); for
// the tests, which then know every byte was loaded exactly `repeats` times.
using ScanChecksum = void (*)(const void* area, std::uint64_t bytes, std::uint64_t repeats, std::uint64_t* lanes);
using PermKernel = void* (*)(void* start, std::uint64_t steps, std::uint64_t repeats);

// What write kernels store: pmbw's pattern, in every 64-bit lane.
inline constexpr std::uint64_t kWritePattern = 0xC0FFEE00C0FFEE00ull;

#if defined(__x86_64__)
namespace x86 {
#define BWS_PMBW_DECLARE_SCAN(name) void name(void*, std::uint64_t, std::uint64_t);
#define BWS_PMBW_DECLARE_CHECK(name) void name##Checksum(const void*, std::uint64_t, std::uint64_t, std::uint64_t*);
#define BWS_PMBW_READ(name) BWS_PMBW_DECLARE_SCAN(name) BWS_PMBW_DECLARE_CHECK(name)
BWS_PMBW_READ(ScanRead32PtrSimpleLoop)
BWS_PMBW_READ(ScanRead32PtrUnrollLoop)
BWS_PMBW_READ(ScanRead64PtrSimpleLoop)
BWS_PMBW_READ(ScanRead64PtrUnrollLoop)
BWS_PMBW_READ(ScanRead64IndexSimpleLoop)
BWS_PMBW_READ(ScanRead64IndexUnrollLoop)
BWS_PMBW_READ(ScanRead128PtrSimpleLoop)
BWS_PMBW_READ(ScanRead128PtrUnrollLoop)
BWS_PMBW_READ(ScanRead256PtrSimpleLoop)
BWS_PMBW_READ(ScanRead256PtrUnrollLoop)
BWS_PMBW_READ(ScanRead512PtrSimpleLoop)
BWS_PMBW_READ(ScanRead512PtrUnrollLoop)
BWS_PMBW_DECLARE_SCAN(ScanWrite32PtrSimpleLoop)
BWS_PMBW_DECLARE_SCAN(ScanWrite32PtrUnrollLoop)
BWS_PMBW_DECLARE_SCAN(ScanWrite64PtrSimpleLoop)
BWS_PMBW_DECLARE_SCAN(ScanWrite64PtrUnrollLoop)
BWS_PMBW_DECLARE_SCAN(ScanWrite64IndexSimpleLoop)
BWS_PMBW_DECLARE_SCAN(ScanWrite64IndexUnrollLoop)
BWS_PMBW_DECLARE_SCAN(ScanWrite128PtrSimpleLoop)
BWS_PMBW_DECLARE_SCAN(ScanWrite128PtrUnrollLoop)
BWS_PMBW_DECLARE_SCAN(ScanWrite256PtrSimpleLoop)
BWS_PMBW_DECLARE_SCAN(ScanWrite256PtrUnrollLoop)
BWS_PMBW_DECLARE_SCAN(ScanWrite512PtrSimpleLoop)
BWS_PMBW_DECLARE_SCAN(ScanWrite512PtrUnrollLoop)
BWS_PMBW_DECLARE_SCAN(ScanWrite256PtrUnrollLoopNT)
BWS_PMBW_DECLARE_SCAN(ScanWrite512PtrUnrollLoopNT)
#undef BWS_PMBW_READ
#undef BWS_PMBW_DECLARE_CHECK
#undef BWS_PMBW_DECLARE_SCAN
void* PermRead64SimpleLoop(void* start, std::uint64_t steps, std::uint64_t repeats);
void* PermRead64UnrollLoop(void* start, std::uint64_t steps, std::uint64_t repeats);
}  // namespace x86
#endif

}  // namespace bws::pmbw
