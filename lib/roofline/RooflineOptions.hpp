#pragma once
// The roofline benchmark's options, declared once (core/OptionSchema.hpp),
// and the typed values plan_roofline() receives. The Triad follows the
// STREAM options, which lib/stream declares. A message names a field:
// o.flag(&RooflineOptions::gemm_n).
#include <cstdint>
#include <optional>

#include "core/Config.hpp"
#include "core/OptionSchema.hpp"
#include "roofline/FmaKernels.hpp"

namespace bws::roofline {

inline constexpr std::uint64_t kMinGemmN = 64, kMaxGemmN = 16384;

struct RooflineOptions : TypedOptions {
  std::optional<VectorIsa> isa;         // nullopt: auto, the widest this CPU supports
  double min_time_seconds = 0;          // an FMA sample lasts at least this
  int reps = 0;                         // timed samples per kernel
  std::optional<std::uint64_t> gemm_n;  // nullopt: auto
};

// Its options; roofline_schema().read(config, quick) gives the typed values.
const OptionSchema<RooflineOptions>& roofline_schema();

}  // namespace bws::roofline
