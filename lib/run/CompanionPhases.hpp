#pragma once
// Companion phases: an entry --tests names may bring another entry's phase
// along, run right after it with some options set (ocl brings b_eff on the
// device path). Kept apart from the rest of the plan, so that it goes in
// one piece once the device is an axis of each benchmark.
#include <string>
#include <vector>

#include "core/Config.hpp"
#include "catalog/Registry.hpp"

namespace bws::survey {

struct CompanionPlan {
  const RegistryEntry* entry;  // the companion's own entry (beff)
  std::string label;           // "beff (beff.path=device)"
  Config config;               // the options with the companion's settings
};

// The companions `entry` brings, in order: those the options ask for and
// that --tests does not already run with the same options.
std::vector<CompanionPlan> companion_phases(const RegistryEntry& entry, const std::vector<const RegistryEntry*>& tests,
                                            const Config& config);

}  // namespace bws::survey
