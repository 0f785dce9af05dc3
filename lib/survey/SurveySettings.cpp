#include "survey/SurveySettings.hpp"

#include <algorithm>
#include <sstream>

#include "core/Errors.hpp"
#include "core/OptionText.hpp"

namespace bws::survey {
namespace {

std::string available_tests() {
  std::string list;
  for (const auto& e : benchmark_registry()) list += (list.empty() ? "" : ", ") + e.name;
  return list;
}

std::vector<const RegistryEntry*> parse_tests(const std::string& text) {
  std::vector<const RegistryEntry*> tests;
  std::stringstream in(text);
  std::string name;
  while (std::getline(in, name, ',')) {
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t") + 1);
    if (name.empty()) continue;
    const RegistryEntry* entry = find_benchmark(name);
    if (!entry) {
      const auto& planned = planned_benchmarks();
      if (std::find(planned.begin(), planned.end(), name) != planned.end())
        throw UsageError("--tests: '" + name + "' is not available in this version; available: " + available_tests());
      throw UsageError("--tests: unknown test '" + name + "'; available: " + available_tests());
    }
    if (std::find(tests.begin(), tests.end(), entry) == tests.end()) tests.push_back(entry);
  }
  if (tests.empty()) throw UsageError("--tests: no test given; available: " + available_tests());
  return tests;
}

int parse_threads(const std::string& text) {
  if (text == "auto") return 0;
  std::size_t used = 0;
  long value = 0;
  try {
    value = std::stol(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty())
    throw UsageError("--threads: '" + text + "' is not a number; allowed: auto or 1..cores of the rank");
  if (value < 1 || value > 4096)
    throw UsageError("--threads: " + text + " is out of range; allowed: auto or 1..cores of the rank");
  return static_cast<int>(value);
}

}  // namespace

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
    s.phase_timeout_seconds = parse_real_number(t, "phase-timeout", "seconds >= 0 (0: no limit)");
    if (s.phase_timeout_seconds < 0)
      throw UsageError("--phase-timeout: " + t + " is out of range; allowed: seconds >= 0 (0: no limit)");
  }
  s.reference = config.has("reference") ? config.get("reference") : std::string();
  s.fail_on_flags = config.has("fail-on-flags") && config.flag("fail-on-flags");
  s.flags = model::parse_flag_settings(config, all_node_metrics());
  s.dmidecode_file = config.has("memory.dmidecode") ? config.get("memory.dmidecode") : std::string();
  if (config.has("retest")) {
    const std::string t = config.get("retest");
    const double rounds = parse_real_number(t, "retest", "a whole number 0..10");
    if (!(rounds >= 0 && rounds <= 10 && rounds == static_cast<int>(rounds)))
      throw UsageError("--retest: " + t + " is out of range; allowed: a whole number 0..10");
    s.retest_rounds = static_cast<int>(rounds);
  }
  return s;
}

}  // namespace bws::survey
