#pragma once
// --flags.k, --flags.fraction and --flags.floor, declared once: bwsurvey
// registers them for the survey, bwreport's flag commands as overrides of
// the survey's own (add_flag_override_options), and both read them here
// into model::FlagSettings, the plain struct the flag rule takes. The floor
// names the catalog's node metrics.
#include <map>
#include <string>
#include <vector>

#include "core/Config.hpp"
#include "core/NodeMetric.hpp"
#include "core/OptionSchema.hpp"
#include "model/NodeFlags.hpp"

namespace bws::catalog {

struct FlagOptions : TypedOptions {
  double k = 0;
  double fraction = 0;
  std::map<std::string, double> floors;
  model::FlagSettings settings() const { return {k, fraction, floors}; }
};

// The schema over `metrics` (the floor's help lists them, and it reads
// only their names).
OptionSchema<FlagOptions> flag_option_schema(const std::vector<NodeMetric>& metrics);

// Reads --flags.* from `config` (absent keys keep the defaults); UsageError
// naming the option and its allowed range, or an unknown metric.
model::FlagSettings read_flag_settings(const Config& config, const std::vector<NodeMetric>& metrics);

// The same options for a bwreport command that recomputes flags: no default
// of their own (the survey's settings are), the same help and ranges.
void add_flag_override_options(boost::program_options::options_description& desc);

}  // namespace bws::catalog
