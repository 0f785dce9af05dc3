// bwreport flags FILE: the slow-node flags of a survey file, computed again
// from its stored node tables with the survey's --flags.* settings (or the
// ones given here): the same function bwsurvey's rank 0 runs.
#include <cstdio>
#include <ostream>

#include "core/PrintableText.hpp"

#include "catalog/Registry.hpp"
#include "h5/ResultFile.hpp"
#include "model/NodeFlags.hpp"
#include "report/FlagReport.hpp"
#include "report/ReportCommand.hpp"
#include "report/SurveyTables.hpp"

namespace po = boost::program_options;

namespace bws::report {
namespace {

int run_flags(const CommandArgs& args, std::ostream& out) {
  po::options_description desc("Options");
  add_flag_override_options(desc);
  const ParsedCommand parsed = parse_command("flags", args, desc, 1, 1);
  if (parsed.help) {
    print_command_help(out, flags_command(), desc);
    return 0;
  }
  const std::string& path = parsed.positional[0];
  const auto file = h5::ResultReader::open(path);
  require_survey_file(file, path, "flags");
  const model::FlagSettings settings = flag_settings_for(file, parsed.options);
  bool stored = false;
  const Table flags = survey_flags(file, parsed.options, stored);
  char rule[256];
  std::snprintf(rule, sizeof rule,
                "rule within each hardware cohort: below %g x the peers' median (3 nodes or more), or below the "
                "median - k_n x 1.4826 x MAD and 95 %% of it (8 nodes or more; k_n = %g - %g/sqrt(n))",
                settings.fraction, settings.k, model::kSmallCohortK);
  out << printable_text(path) << ": " << rule << (settings.floors.empty() ? "" : "; or beyond a --flags.floor")
      << (stored ? "; as stored by the survey" : "; computed again, without retests") << "\n";
  for (const std::string& line :
       survey::flag_summary_lines(flags, file.attribute_int("/", "n_nodes"), read_node_cohorts(file)))
    out << line << "\n";
  return 0;
}

}  // namespace

ReportCommand flags_command() {
  return {"flags", "flags FILE [--flags.k K --flags.fraction F --flags.floor M=V]   the slow nodes, per metric",
          run_flags};
}

}  // namespace bws::report
