#pragma once
// The load benchmark's options, declared once (core/OptionSchema.hpp), and
// the typed values plan_load() receives.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/OptionSchema.hpp"
#include "load/LoadKernels.hpp"

namespace bws::load {

inline constexpr std::uint64_t kMinElements = 1024;
inline constexpr std::uint64_t kMaxElements = UINT64_C(1) << 40;  // 8 TiB of doubles
inline constexpr int kMinReps = 2;  // the first repetition is a warm-up and dropped: one must remain
inline constexpr int kMaxReps = 1000;

struct LoadOptions : TypedOptions {
  std::optional<std::uint64_t> elements;  // nullopt: auto
  std::vector<LoadKernel> kernels;        // as given; plan_load puts them in table order
  int reps = 0;
};

// Its options; load_schema().read(config, quick) gives the typed values.
const OptionSchema<LoadOptions>& load_schema();

}  // namespace bws::load
