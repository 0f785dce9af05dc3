#pragma once
// The pairwise link map's options, declared once (core/OptionSchema.hpp),
// and the typed values plan_links() receives.
#include <cstdint>
#include <optional>
#include <string>

#include "core/OptionSchema.hpp"

namespace bws::links {

struct LinksOptions : TypedOptions {
  std::optional<std::uint64_t> bytes;  // message size of the bandwidth exchanges; nullopt (auto): the link probe's
  int reps = 0;              // timed repetitions of a pair's window each way
  int window = 0;            // messages in flight per pair and direction
  bool latency = true;       // also an 8-byte latency per ordered pair
  std::optional<double> max_time_seconds;  // deprecated --links.max-time: nullopt (auto) = --time-budget
  std::string topology;      // a Slurm topology.conf, "" for none
};

const OptionSchema<LinksOptions>& links_schema();

}  // namespace bws::links
