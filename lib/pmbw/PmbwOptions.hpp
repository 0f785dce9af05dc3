#pragma once
// pmbw's options, declared once (core/OptionSchema.hpp), and the typed
// values plan_pmbw() receives. Old names (--pmbw.min-size, --pmbw.max-size,
// --pmbw.samples) keep working as aliases.
#include <cstdint>
#include <optional>
#include <string>

#include "core/Config.hpp"
#include "core/OptionSchema.hpp"

namespace bws::pmbw {

struct PmbwOptions : TypedOptions {
  std::string routines;  // all, names, ~TEXT or list: read by parse_routines against this CPU
  std::uint64_t min_bytes = 0;
  bool min_bytes_given = false;            // --quick thins the sizes only when the range is left alone
  std::optional<std::uint64_t> max_bytes;  // nullopt: auto
  std::string threads;                     // auto, 1..N or 1,2,4: read by parse_thread_counts against the Team
  bool quadratic = false;
  double min_time_seconds = 0;
  int reps = 0;
  std::uint64_t seed = 0;
  std::string stats_path;  // empty: none
};

// Its options; pmbw_schema().read(config, quick) gives the typed values.
const OptionSchema<PmbwOptions>& pmbw_schema();
// --pmbw.routines alone (the same declaration): "list" prints the routines
// whatever the other options hold, so only this one is read for it.
const OptionSchema<PmbwOptions>& pmbw_listing_schema();

}  // namespace bws::pmbw
