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

inline constexpr const char* kTestsOption = "bs.tests";
inline constexpr const char* kMinBytesOption = "bs.min-bytes";
inline constexpr const char* kMaxBytesOption = "bs.max-bytes";
inline constexpr const char* kFitMinBytesOption = "bs.fit-min-bytes";
inline constexpr const char* kPointsOption = "bs.points";
inline constexpr const char* kRepsOption = "bs.reps";
inline constexpr const char* kDegreesOption = "bs.degrees";
inline constexpr const char* kMaskOption = "bs.mask-boundary";
inline constexpr const char* kBackendOption = "bs.backend";  // default core/BackendList.hpp's "cpu"

inline constexpr const char* kTestsDefault = "bs1,bs2,bs3,bs4,bs5,bs6,bs7";
inline constexpr const char* kMinBytesDefault = "32K";
inline constexpr const char* kMaxBytesDefault = "auto";
inline constexpr const char* kFitMinBytesDefault = "auto";
inline constexpr const char* kPointsDefault = "24";
inline constexpr const char* kRepsDefault = "20";
inline constexpr const char* kDegreesDefault = "1..7";

inline constexpr int kMinPoints = 3, kMaxPoints = 200;
inline constexpr int kMinReps = 1, kMaxReps = 100000;
inline constexpr int kMinDegree = 1, kMaxDegree = 15;
inline constexpr int kQuickPoints = 12, kQuickReps = 5;  // 12: >= 3 points above the LLC for the fit
inline constexpr int kQuickDegrees[] = {1, 4, 7};

struct BsOptions : TypedOptions {
  std::string backends;  // read by core/BackendList
  std::vector<BsTest> tests;  // in test order, no repeats
  std::uint64_t min_bytes = 0;
  std::optional<std::uint64_t> max_bytes;      // nullopt: auto
  std::optional<std::uint64_t> fit_min_bytes;  // nullopt: auto
  int points = 24, reps = 20;
  std::vector<int> degrees;  // ascending, no repeats
  bool mask_boundary = false;
};

// Its options; bs_schema().read(config, quick) gives the typed values.
const OptionSchema<BsOptions>& bs_schema();

}  // namespace bws::bs
