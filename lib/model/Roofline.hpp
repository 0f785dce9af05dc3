#pragma once
// Williams' roofline model (Williams, Waterman & Patterson), as Andreolli
// et al. apply it to Iso3DFD (Intel's stencil methodology): a machine is two ceilings, a compute rate P (FLOP/s) and
// a memory bandwidth B (B/s); a kernel is its arithmetic intensity
//     AI = (#ADD + #MUL) / ((#LOAD + #STORE) * word_bytes)     [FLOP/byte]
// and it attains at most min(P, AI * B). When its adds and muls cannot pair
// (one ADD and one MUL pipe, or one FMA doing both), the peak needs both
// halves busy, and the bound is scaled by the imbalance factor
//     f = (#ADD + #MUL) / (2 * max(#ADD, #MUL))                 [0.5 .. 1]
// The machine balance P / B (FLOP/byte) says where the kernel turns from
// memory bound to compute bound. Pure functions: no I/O.
#include <string>

namespace bws::model {

// A kernel's operation counts per point (per innermost iteration).
struct KernelCounts {
  double adds = 0, muls = 0;     // floating-point additions and multiplications
  double loads = 0, stores = 0;  // memory words read and written
  double word_bytes = 0;         // bytes per word (4: float, 8: double)
};

// (adds + muls) / ((loads + stores) * word_bytes); NaN when there is no traffic.
double arithmetic_intensity(const KernelCounts& counts);
// (adds + muls) / (2 * max(adds, muls)); NaN when both are 0.
double imbalance_factor(double adds, double muls);
// peak_flops / bandwidth_Bps [FLOP/byte]; NaN unless both are positive.
double machine_balance(double peak_flops, double bandwidth_Bps);
// min(peak_flops, ai * bandwidth_Bps) [FLOP/s].
double attainable_flops(double ai, double peak_flops, double bandwidth_Bps);

// A kernel against one pair of ceilings.
struct RooflineBound {
  double balance = 0;            // FLOP/byte of the ceilings
  bool memory_bound = false;     // ai < balance
  double attainable = 0;         // min(P, AI * B)
  double attainable_imbalanced = 0;  // attainable * imbalance factor
};
RooflineBound roofline_bound(double ai, double imbalance, double peak_flops, double bandwidth_Bps);

}  // namespace bws::model
