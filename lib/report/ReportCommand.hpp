#pragma once
// bwreport's subcommands: each lives in its own file under lib/report/ and
// is one line of the dispatch table in apps/bwreport.cpp, all with this one
// signature. A command gets its
// arguments (after its name), prints to `out`, and returns the exit code;
// it throws UsageError (exit 2) for bad arguments, anything else exits 1.
#include <iosfwd>
#include <string>
#include <vector>

#include "core/ProgramOptionsFwd.hpp"
#include <boost/program_options/variables_map.hpp>

#include "report/HistoryChangesHook.hpp"

namespace bws::report {

using CommandArgs = std::vector<std::string>;

struct ReportCommand {
  const char* name;      // "summary"
  const char* synopsis;  // "summary FILE   print the survey's summary again"
  int (*run)(const CommandArgs& args, std::ostream& out);
};

// The commands of this folder.
ReportCommand summary_command();
ReportCommand export_command();
ReportCommand merge_command();
ReportCommand campaign_command();  // report/Campaign.cpp
ReportCommand scaling_command();
ReportCommand flags_command();
ReportCommand retest_command();
ReportCommand drain_command();     // report/Drain.cpp
ReportCommand undrain_command();   // report/Undrain.cpp
ReportCommand roofline_command();  // report/RooflineCommand.cpp
// plot; `history_changes` writes the History section's change points
// (report/HistoryChangesHook.hpp), nullptr: --history is refused.
ReportCommand plot_command(HistoryChangesWriter history_changes = nullptr);  // report/PlotCommand.cpp

// Runs `command` as bwreport does: its exit code, or for what it throws one
// line on `err` ("bwreport: error: ...", bounded) and exit 2 (UsageError)
// or 1 (anything else). The command prints to `out` through a
// TerminalTextBuffer (core/PrintableText.hpp): no control byte but '\n' and '\t' reaches `out` raw.
int run_report_command(const ReportCommand& command, const CommandArgs& args, std::ostream& out, std::ostream& err);

// Runs `body`; what it throws is thrown again (UsageError as UsageError,
// anything else as RuntimeFailure) with "bwreport <command>: " before the
// message, for commands whose checks do not name the command themselves.
int with_command_name(const char* command, int (*body)(const CommandArgs&, std::ostream&), const CommandArgs& args,
                      std::ostream& out);

// Parses a command's arguments: options declared in `desc`, and at least
// `min_positional` (at most `max_positional`, -1: any) positional arguments.
// `--help` makes `help` true and skips the positional count check. Throws
// UsageError "bwreport <command>: ..." on anything else.
struct ParsedCommand {
  boost::program_options::variables_map options;
  std::vector<std::string> positional;
  bool help = false;
};
ParsedCommand parse_command(const std::string& command, const CommandArgs& args,
                            const boost::program_options::options_description& desc, int min_positional,
                            int max_positional);

// No command writes over an input: UsageError "bwreport <command>: <what>
// '<output>' is the input '<input>'; ..." when `output` is one of `inputs`
// (the same file: another spelling, a symbolic or a hard link included).
void refuse_output_over_input(const std::string& command, const std::string& what, const std::string& output,
                              const std::vector<std::string>& inputs);

// No input given twice: UsageError "bwreport <command>: '<a>' and '<b>' are
// the same file; allowed: <allowed>" (another spelling or a link included).
void refuse_repeated_inputs(const std::string& command, const std::vector<std::string>& inputs,
                            const std::string& allowed);

// The command's help: its synopsis line and its options.
void print_command_help(std::ostream& out, const ReportCommand& command,
                        const boost::program_options::options_description& desc);

}  // namespace bws::report
