#pragma once
// What `bwreport roofline` prints: a kernel's arithmetic intensity and
// add/mul imbalance factor, and for each pair of ceilings (given on the
// command line, or measured per node) the machine balance, whether the
// kernel is memory or compute bound there, and the FLOP/s it can attain
// with and without the imbalance factor (Andreolli et al.'s Iso3DFD roofline). Pure: text from numbers.
#include <optional>
#include <string>
#include <vector>

#include "model/Roofline.hpp"

namespace bws::roofline {

struct KernelDescription {
  std::optional<model::KernelCounts> counts;  // when the AI comes from counts
  double ai = 0;                              // FLOP/byte
  std::optional<double> adds, muls;           // for the imbalance factor
  double imbalance() const;                   // 1 when adds/muls are not known
};

// The kernel from counts (AI and imbalance computed).
KernelDescription kernel_from_counts(const model::KernelCounts& counts);

struct CeilingPair {
  std::string ceiling;  // "given", "FMA peak", "DGEMM"
  std::string host;     // "-" for given ceilings
  double peak_flops = 0, bandwidth_Bps = 0;
};

// "Kernel: 51 adds, 27 muls, 4 loads, 1 store, 4-byte words" and the AI and
// imbalance lines.
std::vector<std::string> kernel_lines(const KernelDescription& kernel);
// A table: ceiling, host, compute GFLOP/s, bandwidth GB/s, balance, bound,
// attainable GFLOP/s, with imbalance GFLOP/s.
std::vector<std::string> ceiling_lines(const KernelDescription& kernel, const std::vector<CeilingPair>& ceilings);

}  // namespace bws::roofline
