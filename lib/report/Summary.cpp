// bwreport summary FILE: the survey's terminal summary again, from the file.
#include <ostream>

#include <boost/program_options/options_description.hpp>

#include "report/FileSummary.hpp"
#include "report/ReportCommand.hpp"

namespace bws::report {
namespace {

int run_summary(const CommandArgs& args, std::ostream& out) {
  boost::program_options::options_description desc("Options");
  const ParsedCommand parsed = parse_command("summary", args, desc, 1, 1);
  if (parsed.help) {
    print_command_help(out, summary_command(), desc);
    return 0;
  }
  for (const std::string& line : report::summarize_file(parsed.positional[0])) out << line << "\n";
  return 0;
}

}  // namespace

ReportCommand summary_command() {
  return {"summary", "summary FILE   the survey's terminal summary again (Slurm provenance, flags, checks)",
          run_summary};
}

}  // namespace bws::report
