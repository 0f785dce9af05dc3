// `bwreport history SUB ...`: the sub-commands' table and the dispatch.
#include <ostream>
#include <vector>

#include "core/Errors.hpp"
#include "core/PrintableText.hpp"
#include "history/HistoryCommands.hpp"

namespace bws::history {
namespace {

const std::vector<report::ReportCommand>& sub_commands() {
  static const std::vector<report::ReportCommand> kSubCommands = {
      history_add_command(),
      history_show_command(),
      history_changes_command(),
      history_baseline_command(),
  };
  return kSubCommands;
}

std::string sub_command_names() {
  std::string names;
  for (const auto& c : sub_commands()) names += (names.empty() ? "" : ", ") + std::string(c.name);
  return names;
}

int run_history(const report::CommandArgs& args, std::ostream& out) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    if (args.empty()) throw UsageError("bwreport history: a sub-command is missing; sub-commands: " + sub_command_names());
    out << "Usage: bwreport history SUB ARGS...   (bwreport history SUB --help for its options)\n";
    for (const auto& c : sub_commands()) out << "  " << c.synopsis << "\n";
    return kExitOk;
  }
  for (const auto& c : sub_commands())
    if (args[0] == c.name) return c.run({args.begin() + 1, args.end()}, out);
  throw UsageError("bwreport history: unknown sub-command '" + printable_text(args[0], 100) +
                   "'; sub-commands: " + sub_command_names());
}

}  // namespace

report::ReportCommand history_command() {
  return {"history", "history SUB ...   the history archive: add, show (bwreport history --help)", run_history};
}

}  // namespace bws::history
