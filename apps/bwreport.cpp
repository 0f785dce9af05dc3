// bwreport: offline analysis of survey files (no MPI needed). Each
// subcommand lives in lib/report/, all with one signature (ReportCommand);
// this file only dispatches: one line per command in kCommands.
#include <iostream>
#include <string>
#include <vector>

#include "core/Errors.hpp"
#include "core/PrintableText.hpp"
#include "history/HistoryCommands.hpp"
#include "history/NodeVerdict.hpp"
#include "report/ReportCommand.hpp"
#include "report/VersionText.hpp"

namespace {

const std::vector<bws::report::ReportCommand>& commands() {
  static const std::vector<bws::report::ReportCommand> kCommands = {
      bws::report::summary_command(),  bws::report::export_command(),   bws::report::merge_command(),    bws::report::campaign_command(),
      bws::report::scaling_command(),  bws::report::flags_command(),    bws::report::retest_command(),
      bws::report::drain_command(),    bws::report::undrain_command(),  bws::report::roofline_command(), bws::report::plot_command(bws::history::write_history_changes_tsv),
      bws::history::history_command(), bws::history::verdict_command(),
  };
  return kCommands;
}

void print_usage(std::ostream& out) {
  out << "Usage: bwreport COMMAND ARGS...   (bwreport COMMAND --help for its options)\n"
      << "       bwreport --version   the version, commit, build options and kernel instruction sets\n";
  for (const auto& c : commands()) out << "  " << c.synopsis << "\n";
  out << "Exit codes: 0 done; 1 a runtime error; 2 a usage error; 3 a check failed (scaling).\n";
}

}  // namespace

int main(int argc, char** argv) {
  bws::guard_terminal_streams();  // no control byte from any text reaches the terminal
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    print_usage(args.empty() ? std::cerr : std::cout);
    return args.empty() ? bws::kExitUsage : bws::kExitOk;
  }
  if (args[0] == "--version") {
    std::cout << bws::report::version_text("bwreport") << std::flush;
    return bws::kExitOk;
  }
  for (const auto& command : commands())
    if (args[0] == command.name)
      return bws::report::run_report_command(command, {args.begin() + 1, args.end()}, std::cout, std::cerr);
  std::string names;
  for (const auto& c : commands()) names += (names.empty() ? "" : ", ") + std::string(c.name);
  std::cerr << "bwreport: error: unknown command '" << bws::printable_text(args[0], 100) << "'; commands: " << names << std::endl;
  return bws::kExitUsage;
}
