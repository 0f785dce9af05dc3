#pragma once
// The survey's own options, validated: which tests, how many threads, how
// to bind, where to write. Each is declared once, in survey_option_schema()
// (SurveyOptions.cpp): name, type, default, range, unit, help and INI key;
// a new survey option is one line there and one field here. Benchmark
// options are validated by each benchmark's plan().
#include <string>
#include <vector>

#include "catalog/Registry.hpp"
#include "core/Config.hpp"
#include "core/OptionSchema.hpp"
#include "model/NodeFlags.hpp"
#include "topology/PinningPlan.hpp"

namespace bws::run {

struct SurveySettings : TypedOptions {
  std::vector<const CatalogEntry*> tests;  // in the order given, no duplicates
  int threads = 0;                          // 0: one per core of the rank
  topo::BindPolicy bind = topo::BindPolicy::Compact;
  std::string out;
  bool force = false;
  bool quick = false;
  std::string resume;                 // --resume: the file to complete, or empty
  double phase_timeout_seconds = 0;   // --phase-timeout: 0 = wait forever
  double time_budget_seconds = 300;   // --time-budget: seconds each test's plan may be estimated at; 0 = no limit
  std::string reference;              // --reference: INI file of reference values, or empty
  bool fail_on_flags = false;         // --fail-on-flags: a flagged node makes the exit code 3
  model::FlagSettings flags;          // --flags.* (catalog/FlagOptions.hpp)
  int retest_rounds = 0;              // --retest: rounds of in-job retest of flagged nodes
  std::string dmidecode_file;         // --memory.dmidecode: a dmidecode output per node (%h = host), or empty
};

// The survey's options (all but --flags.*, declared with the flag rule, and
// the actions --help, --version, --print-config, --config), in --help's order.
const OptionSchema<SurveySettings>& survey_option_schema();

// Throws UsageError: "--tests: unknown test 'foo'; available: stream", an
// empty list, a --threads that is not 'auto' or 1..4096, an unknown --bind,
// an empty --out, a --phase-timeout that is not a number >= 0, bad --flags.*.
// A --flags.floor metric that none of the tests measures (--tests stream
// and a bs.wmax floor) is refused too: it would match nothing.
SurveySettings parse_survey_settings(const Config& config);

// The node metrics the tests measure.
std::vector<model::NodeMetric> measured_node_metrics(const std::vector<const CatalogEntry*>& tests);

}  // namespace bws::run
