#include "run/SurveySettings.hpp"

#include <algorithm>
#include <sstream>

#include "core/Errors.hpp"
#include "core/OptionText.hpp"

namespace bws::run {
namespace {

constexpr std::uint64_t kMaxThreads = 4096;
// --phase-timeout above a year is a typo, and would overflow the clocks' durations.
constexpr double kMaxPhaseTimeoutSeconds = 365.0 * 24 * 3600;

std::string available_tests() {
  std::string list;
  for (const auto& e : catalog::benchmark_registry()) list += (list.empty() ? "" : ", ") + e.name;
  return list;
}

std::vector<const CatalogEntry*> parse_tests(const std::string& text) {
  std::vector<const CatalogEntry*> tests;
  std::stringstream in(text);
  std::string name;
  while (std::getline(in, name, ',')) {
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t") + 1);
    if (name.empty()) continue;
    const CatalogEntry* entry = catalog::find_benchmark(name);
    if (!entry) throw UsageError("--tests: unknown test " + quoted_input(name) + "; available: " + available_tests());
    if (std::find(tests.begin(), tests.end(), entry) == tests.end()) tests.push_back(entry);
  }
  if (tests.empty()) throw UsageError("--tests: no test given; available: " + available_tests());
  return tests;
}

int parse_threads(const std::string& text) {
  if (trim_text(text) == "auto") return 0;
  const char* const allowed = "; allowed: auto or 1..cores of the rank";
  std::uint64_t value = 0;
  const NumberRead read = read_whole_number(text, value);
  if (read == NumberRead::NotANumber) throw UsageError("--threads: " + quoted_input(text) + " is not a number" + allowed);
  if (read == NumberRead::OutOfRange || value < 1 || value > kMaxThreads)
    throw UsageError("--threads: " + quoted_input(text) + " is out of range" + allowed);
  return static_cast<int>(value);
}

}  // namespace

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
  SurveySettings s;
  s.tests = parse_tests(config.get("tests"));
  s.threads = parse_threads(config.get("threads"));
  s.bind = topo::parse_bind_policy(config.get("bind"));
  s.out = config.get("out");
  if (s.out.empty()) throw UsageError("--out: empty file name; give the HDF5 file to write");
  s.force = config.flag("force");
  s.quick = config.flag("quick");
  s.resume = config.has("resume") ? config.get("resume") : std::string();
  if (config.has("phase-timeout")) {
    const std::string t = config.get("phase-timeout");
    s.phase_timeout_seconds = parse_real_number(t, "phase-timeout", 0, kMaxPhaseTimeoutSeconds,
                                                "seconds 0..31536000 (a year; 0: no limit)");
  }
  if (config.has("time-budget"))
    s.time_budget_seconds = parse_real_number(config.get("time-budget"), "time-budget", 0, kMaxPhaseTimeoutSeconds,
                                              "seconds 0..31536000 (a year; 0: no limit)");
  s.reference = config.has("reference") ? config.get("reference") : std::string();
  s.fail_on_flags = config.has("fail-on-flags") && config.flag("fail-on-flags");
  s.flags = model::parse_flag_settings(config, catalog::all_node_metrics());
  const std::vector<model::NodeMetric> measured = measured_node_metrics(s.tests);
  for (const auto& [key, floor] : s.flags.floors) {
    const std::string name = trim_text(key.substr(0, key.find('[')));
    if (std::none_of(measured.begin(), measured.end(), [&](const model::NodeMetric& m) { return m.name == name; })) {
      std::string names;
      for (const model::NodeMetric& m : measured) names += (names.empty() ? "" : ", ") + m.name;
      throw UsageError("--flags.floor: metric " + quoted_input(key) + " is not measured by --tests " +
                       quoted_input(config.get("tests")) + "; measured: " + (names.empty() ? "none" : names));
    }
  }
  s.dmidecode_file = config.has("memory.dmidecode") ? config.get("memory.dmidecode") : std::string();
  if (config.has("retest")) {
    const std::string t = config.get("retest");
    const double rounds = parse_real_number(t, "retest", 0, 10, "a whole number 0..10");
    if (rounds != static_cast<int>(rounds))
      throw UsageError("--retest: " + quoted_input(t) + " is out of range; allowed: a whole number 0..10");
    s.retest_rounds = static_cast<int>(rounds);
  }
  return s;
}

}  // namespace bws::run
