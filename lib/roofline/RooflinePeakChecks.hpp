#pragma once
// A GEMM cannot run faster than the FMA peak of its type: its every FLOP is
// one of the multiply-adds the peak kernel keeps all pipes busy with. A
// GEMM rate above the measured peak means the peak is not the machine's
// (a narrower ISA than the BLAS uses, fewer threads) or a timing is wrong;
// either way the roofline's ceilings do not hold, so it is a failed check
// of kind "model" (exit 3), naming the two rates, never a pass.
#include <string>

#include "core/Table.hpp"
#include "roofline/RooflineResults.hpp"

namespace bws::roofline {

// Both rates are measured moments apart; a compute-bound rate moves with
// the core clock (turbo, thermal state) by a few per cent between phases,
// so a GEMM up to 3 % above the peak is that noise, not a contradiction.
inline constexpr double kPeakTolerance = 0.03;

// One "roofline.peak" check row per type whose GEMM and FMA rates are both
// measured: passed when gemm <= (1 + kPeakTolerance) * fma. `subject`
// names the rank or node ("rank 0 (h)", "node h").
void add_peak_checks(Table& checks, const std::string& subject, const Ceilings& ceilings);

}  // namespace bws::roofline
