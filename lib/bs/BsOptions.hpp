#pragma once
// BS1-BS7's options, declared once (core/OptionSchema.hpp), and the typed
// values plan_bs_for receives. What depends on the target (auto sizes from
// its cache, the memory the sweep needs, min <= max) stays with the plan.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bs/BsTypes.hpp"
#include "core/Config.hpp"
#include "core/OptionSchema.hpp"

namespace bws::bs {

inline constexpr int kMinPoints = 3, kMaxPoints = 200;
inline constexpr int kMinReps = 1, kMaxReps = 100000;
inline constexpr int kMinDegree = 1, kMaxDegree = 15;
inline constexpr int kQuickPoints = 12, kQuickReps = 5;  // 12: >= 3 points above the LLC for the fit
inline constexpr int kQuickDegrees[] = {1, 4, 7};

// The values as read; a message of plan() names an option by its field:
// o.flag(&BsOptions::max_bytes) gives "--bs.max-bytes".
struct BsOptions : TypedOptions {
  std::string backends;  // read by core/BackendList against the backends built in
  std::vector<BsTest> tests;  // in test order, no repeats
  std::uint64_t min_bytes = 0;
  std::optional<std::uint64_t> max_bytes;      // nullopt: auto
  std::optional<std::uint64_t> fit_min_bytes;  // nullopt: auto; 0: fit every point
  int points = 24, reps = 20;
  std::vector<int> degrees;  // ascending, no repeats, each kMinDegree..kMaxDegree
  bool mask_boundary = false;
  // Not an option: how far the auto sweep reaches, in last-level caches (0:
  // the plan's default). --time-budget lowers it last (BsBenchmark.cpp).
  std::uint64_t auto_llc_multiple = 0;
};

// Its options; bs_schema().read(config, quick) gives the typed values.
const OptionSchema<BsOptions>& bs_schema();

}  // namespace bws::bs
