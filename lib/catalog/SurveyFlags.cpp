#include "catalog/SurveyFlags.hpp"

#include <algorithm>

#include "catalog/Registry.hpp"

namespace bws::catalog {

Table survey_flags(const std::vector<Table>& tables, const model::FlagSettings& settings,
                   const model::NodeCohorts& cohorts) {
  Table flags = model::node_flags(all_node_metrics(), tables, settings, cohorts);
  const FlagInputs inputs{settings.k, settings.fraction, &cohorts};
  for (const CatalogEntry& entry : benchmark_registry())
    if (entry.make_flags) flags.append(entry.make_flags(tables, inputs));
  return flags;
}

std::vector<std::string> flag_input_tables() {
  std::vector<std::string> paths = model::metric_tables(all_node_metrics());
  for (const CatalogEntry& entry : benchmark_registry())
    if (entry.make_flags)
      for (const std::string& p : entry.report_tables)
        if (std::find(paths.begin(), paths.end(), p) == paths.end()) paths.push_back(p);
  return paths;
}

}  // namespace bws::catalog
