#include "run/SurveySettings.hpp"

#include <algorithm>

#include "catalog/FlagOptions.hpp"
#include "core/Errors.hpp"
#include "core/OptionText.hpp"

namespace bws::run {

std::vector<model::NodeMetric> measured_node_metrics(const std::vector<const CatalogEntry*>& tests) {
  const std::vector<const CatalogEntry*>& entries = tests;
  std::vector<model::NodeMetric> metrics;
  for (const model::NodeMetric& m : catalog::all_node_metrics())
    if (std::any_of(entries.begin(), entries.end(), [&](const CatalogEntry* e) {
          return std::any_of(e->node_metrics.begin(), e->node_metrics.end(),
                             [&](const model::NodeMetric& own) { return own.name == m.name; });
        }))
      metrics.push_back(m);
  return metrics;
}

SurveySettings parse_survey_settings(const Config& config) {
  SurveySettings s = survey_option_schema().read(config, false);
  s.flags = catalog::read_flag_settings(config, catalog::all_node_metrics());
  const std::vector<model::NodeMetric> measured = measured_node_metrics(s.tests);
  for (const auto& [key, floor] : s.flags.floors) {
    const std::string name = trim_text(key.substr(0, key.find('[')));
    if (std::none_of(measured.begin(), measured.end(), [&](const model::NodeMetric& m) { return m.name == name; })) {
      std::string names;
      for (const model::NodeMetric& m : measured) names += (names.empty() ? "" : ", ") + m.name;
      throw UsageError("--flags.floor: metric " + quoted_input(key) + " is not measured by --tests " +
                       quoted_input(config.has("tests") ? config.get("tests") : std::string()) + "; measured: " +
                       (names.empty() ? "none" : names));
    }
  }
  return s;
}

}  // namespace bws::run
