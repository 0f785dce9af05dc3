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
#include "report/FlagsInput.hpp"
#include "report/ReportCommand.hpp"
#include "report/SurveyTables.hpp"

namespace bws::report {
namespace {

int run_flags(const CommandArgs& args, std::ostream& out) {
  const std::optional<FlagsInput> input = open_flags_input(flags_command(), args, out);
  if (!input) return 0;  // --help
  const std::string& path = input->path;
  const h5::ResultReader& file = input->file;
  const model::FlagSettings settings = flag_settings_for(file, input->options);
  bool stored = false;
  const Table flags = survey_flags(file, input->options, stored);
  char rule[256];
  std::snprintf(rule, sizeof rule,
                "rule within each hardware cohort: below %g x the peers' median (3 nodes or more), or below the "
                "median - k_n x 1.4826 x MAD and 95 %% of it (8 nodes or more; k_n = %g - %g/sqrt(n))",
                settings.fraction, settings.k, model::kSmallCohortK);
  out << printable_text(path) << ": " << rule << (settings.floors.empty() ? "" : "; or beyond a --flags.floor")
      << (stored ? "; as stored by the survey" : "; computed again, without retests") << "\n";
  for (const std::string& line :
       report::flag_summary_lines(flags, file.attribute_int("/", "n_nodes"), read_node_cohorts(file)))
    out << line << "\n";
  return 0;
}

}  // namespace

ReportCommand flags_command() {
  return {"flags", "flags FILE [--flags.k K --flags.fraction F --flags.floor M=V]   the slow nodes, per metric",
          run_flags};
}

}  // namespace bws::report
