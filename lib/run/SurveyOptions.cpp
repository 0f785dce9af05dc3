// The survey's own options, each declared once: what --help shows, how
// --config and a resumed file's /config read, the range every error names.
#include <algorithm>
#include <sstream>

#include "core/Errors.hpp"
#include "core/OptionText.hpp"
#include "run/SurveySettings.hpp"

namespace bws::run {
namespace {

constexpr std::uint64_t kMaxThreads = 4096;
// A time limit above a year is a typo, and would overflow the clocks' durations.
constexpr double kYearSeconds = 365.0 * 24 * 3600;

std::string available_tests() {
  std::string list;
  for (const auto& e : catalog::benchmark_registry()) list += (list.empty() ? "" : ", ") + e.name;
  return list;
}

std::string default_tests() {
  std::string list;
  for (const auto& e : catalog::benchmark_registry())
    if (e.in_default_set) list += (list.empty() ? "" : ",") + e.name;
  return list;
}

std::vector<const CatalogEntry*> read_tests(const OptionValue& v) {
  std::vector<const CatalogEntry*> tests;
  std::stringstream in(v.text);
  std::string name;
  while (std::getline(in, name, ',')) {
    name = trim_text(name);
    if (name.empty()) continue;
    const CatalogEntry* entry = catalog::find_benchmark(name);
    if (!entry) throw UsageError("--tests: unknown test " + quoted_input(name) + "; available: " + available_tests());
    if (std::find(tests.begin(), tests.end(), entry) == tests.end()) tests.push_back(entry);
  }
  if (tests.empty()) throw UsageError("--tests: no test given; available: " + available_tests());
  return tests;
}

std::string tests_help() {
  return "comma-separated tests to run; available: " + available_tests() +
         " (ocl: an alias, stream and bs on backend ocl and beff with --beff.path device, see --ocl.tests)";
}

OptionSchema<SurveySettings> make_schema() {
  using S = SurveySettings;
  return OptionSchema<S>({
      bind_option(flag_option("force", false, "overwrite --out when it exists"), &S::force),
      bind_option(flag_option("quick", false, "shortest meaningful run: each benchmark's --quick values (smaller "
                                              "sizes, fewer repetitions) for the options left at their defaults"),
                  &S::quick),
      bind_option(flag_option("fail-on-flags", false, "exit 3 when a node is flagged as slow (see --flags.*)"),
                  &S::fail_on_flags),
      bind_option(text_option("tests", default_tests(), tests_help()), &S::tests, read_tests),
      bind_option(text_option("out", "survey.h5",
                              "HDF5 result file (path; must not exist unless --force, which replaces only an HDF5 "
                              "file, never a device, FIFO, directory or link; locked while written: a second run on "
                              "it is refused)"),
                  &S::out,
                  [](const OptionValue& v) {
                    if (v.text.empty()) throw UsageError("--out: empty file name; give the HDF5 file to write");
                    return v.text;
                  }),
      bind_option(whole_option("threads", "auto", 1, kMaxThreads, "threads",
                               "worker threads per rank, one per core; auto = all the cores of the rank's cpuset")
                      .or_auto()
                      .note("(at most the cores of the rank's cpuset)"),
                  &S::threads),
      bind_option(text_option("resume", "",
                              "complete FILE, a survey that was cut off: runs only the tests missing from it, with the "
                              "configuration stored in it (options given must agree with it); --out is FILE"),
                  &S::resume),
      bind_option(real_option("phase-timeout", "0", 0, kYearSeconds, "seconds",
                              "seconds a test (or the setup) may take on every rank before the job is aborted, "
                              "naming the ranks that did not finish; 0 = no limit")
                      .note("(a year; 0: no limit)"),
                  &S::phase_timeout_seconds),
      bind_option(real_option("time-budget", "300", 0, kYearSeconds, "seconds",
                              "seconds each test may be estimated to take on a rank (every test prints its estimate "
                              "before it starts): a plan that would take longer is made smaller where its options are "
                              "left at their defaults (fewer thread counts and sizes, shorter samples, fewer "
                              "repetitions), else refused before anything runs, naming the --time-budget that would "
                              "fit; 0 = no limit")
                      .note("(a year; 0: no limit)"),
                  &S::time_budget_seconds),
      bind_option(text_option("reference", "",
                              "INI file of reference values checked per node (metric = target, lower, upper, unit "
                              "under [host pattern]; see README); verdicts in /checks; default: none"),
                  &S::reference),
      bind_option(text_option("memory.dmidecode", "",
                              "read each node's DIMM population (theoretical memory bandwidth) from this `dmidecode "
                              "-t memory` output instead of the machine's SMBIOS table, which needs root: a file path, "
                              "%h is replaced by the node's hostname (e.g. saved at boot: /var/lib/bwsurvey/%h.dmi); "
                              "default: the machine's own"),
                  &S::dmidecode_file),
      bind_option(whole_option("retest", "0", 0, 10, "rounds",
                               "rounds of retest at the end of the survey: the flagged nodes run the flagged tests "
                               "again this many times while the others wait (b_eff, being collective, runs on every "
                               "rank); a flag stands only when the retests' median confirms it (the Slurm template "
                               "uses 1)"),
                  &S::retest_rounds),
      bind_option(one_of_option("bind", "compact", {"compact", "spread", "none"},
                                "thread placement over the rank's cores: compact (fill cores in order), spread (even "
                                "over packages and NUMA nodes), none (unbound)")
                      .called("policy"),
                  &S::bind, [](const OptionValue& v) { return topo::parse_bind_policy(v.text); }),
  });
}

}  // namespace

const OptionSchema<SurveySettings>& survey_option_schema() {
  static const OptionSchema<SurveySettings> schema = make_schema();
  return schema;
}

}  // namespace bws::run
