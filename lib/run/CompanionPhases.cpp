#include "run/CompanionPhases.hpp"

#include <algorithm>
#include <stdexcept>

namespace bws::survey {

std::vector<CompanionPlan> companion_phases(const RegistryEntry& entry, const std::vector<const RegistryEntry*>& tests,
                                            const Config& config) {
  std::vector<CompanionPlan> plans;
  for (const CompanionPhase& companion : entry.companions) {
    if (companion.wanted && !companion.wanted(config)) continue;
    const RegistryEntry* other = find_benchmark(companion.name);
    if (!other) throw std::logic_error("registry: companion '" + companion.name + "' is no benchmark");
    Config settings = config;
    bool already = std::find(tests.begin(), tests.end(), other) != tests.end();
    for (const auto& [key, value] : companion.settings) {
      already = already && settings.has(key) && settings.get(key) == value;
      settings.set(key, value);
    }
    if (!already) plans.push_back({other, companion.label(), std::move(settings)});
  }
  return plans;
}

}  // namespace bws::survey
