#pragma once
// The resolved plan of one rank: which kernels, how many doubles, how many
// passes. Every bad value is one UsageError naming the option.
#include <cstdint>
#include <string>
#include <vector>

#include "core/Benchmark.hpp"
#include "core/Config.hpp"
#include "load/LoadKernels.hpp"

namespace bws::load {

inline constexpr std::uint64_t kAutoMinElements = UINT64_C(1) << 20;  // 8 MiB
inline constexpr std::uint64_t kAutoLlcMultiple = 4;                  // the array >= 4x the LLC (STREAM's rule)
inline constexpr double kAutoMemoryFraction = 0.40;                   // all ranks of a node within 40% of it

struct LoadParams {
  std::vector<LoadKernel> kernels;  // in table order
  std::uint64_t elements = 0;       // doubles in this rank's array
  bool elements_auto = true;
  int reps = 0;  // passes per kernel, the first one dropped
};

LoadParams plan_load(const Config& config, const NodeContext& node);

// "load, store, update; 4194304 doubles (32.00 MiB, auto); 10 passes"
std::string describe_load(const LoadParams& params);

// Seconds the plan takes: kernels x reps x 8 B x elements (twice for update, which reads and writes) / the
// probed memory bandwidth, plus the first touch of the array.
TimeEstimate estimate_load(const LoadParams& params, const MachineSpeed& speed);

}  // namespace bws::load
