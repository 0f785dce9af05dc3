// bwreport: offline analysis of survey files (no MPI needed). Each
// subcommand lives in lib/report/ (or its own folder); this file only
// dispatches: one line per command in kCommands.
#include <iostream>
#include <string>
#include <vector>

#include "core/Errors.hpp"
#include "core/PrintableText.hpp"
#include "report/ReportCommand.hpp"
#include "survey/PlotCommand.hpp"
#include "survey/RooflineCommand.hpp"

namespace {

// A message is one line of bounded length, whatever text of a file it quotes.
std::string one_line(const char* message) { return bws::printable_text(message, 1000); }

// The roofline and plot commands report their own errors on stderr.
int roofline(const bws::report::CommandArgs& args, std::ostream& out) {
  return bws::survey::roofline_command(args, out, std::cerr);
}
int plot(const bws::report::CommandArgs& args, std::ostream& out) {
  return bws::survey::plot_command(args, out, std::cerr);
}

const std::vector<bws::report::ReportCommand>& commands() {
  static const std::vector<bws::report::ReportCommand> kCommands = {
      bws::report::summary_command(),
      bws::report::export_command(),
      bws::report::merge_command(),
      bws::report::scaling_command(),
      bws::report::flags_command(),
      bws::report::retest_command(),
      bws::report::drain_command(),
      {"roofline", "roofline ...   a kernel's attainable FLOP/s against given and measured ceilings", roofline},
      {"plot", "plot FILE... -o DIR   PNGs and index.html of the survey", plot},
  };
  return kCommands;
}

void print_usage(std::ostream& out) {
  out << "Usage: bwreport COMMAND ARGS...   (bwreport COMMAND --help for its options)\n";
  for (const auto& c : commands()) out << "  " << c.synopsis << "\n";
  out << "Exit codes: 0 done; 1 a runtime error; 2 a usage error; 3 a check failed (scaling).\n";
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    print_usage(args.empty() ? std::cerr : std::cout);
    return args.empty() ? bws::kExitUsage : bws::kExitOk;
  }
  for (const auto& command : commands()) {
    if (args[0] != command.name) continue;
    try {
      return command.run({args.begin() + 1, args.end()}, std::cout);
    } catch (const bws::UsageError& e) {  // bad arguments, or a bad input file
      std::cerr << "bwreport: error: " << one_line(e.what()) << std::endl;
      return bws::kExitUsage;
    } catch (const std::exception& e) {
      std::cerr << "bwreport: error: " << one_line(e.what()) << std::endl;
      return bws::kExitFailure;
    }
  }
  std::string names;
  for (const auto& c : commands()) names += (names.empty() ? "" : ", ") + std::string(c.name);
  std::cerr << "bwreport: error: unknown command '" << bws::printable_text(args[0], 100) << "'; commands: " << names << std::endl;
  return bws::kExitUsage;
}
