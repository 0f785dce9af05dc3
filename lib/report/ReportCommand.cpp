#include "report/ReportCommand.hpp"

#include <ostream>

#include <boost/program_options/parsers.hpp>
#include <boost/program_options/positional_options.hpp>

#include "core/Errors.hpp"
#include "core/FileIdentity.hpp"
#include "core/PrintableText.hpp"

namespace po = boost::program_options;

namespace bws::report {

ParsedCommand parse_command(const std::string& command, const CommandArgs& args, const po::options_description& desc,
                            int min_positional, int max_positional) {
  po::options_description all;
  all.add(desc);
  all.add_options()("help,h", po::bool_switch(), "print this command's help")(
      "bwreport-positional", po::value<std::vector<std::string>>()->multitoken(), "");
  po::positional_options_description positional;
  positional.add("bwreport-positional", -1);
  ParsedCommand parsed;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), parsed.options);
    po::notify(parsed.options);
  } catch (const po::unknown_option& e) {
    throw UsageError("bwreport " + command + ": unknown option '" + e.get_option_name() + "'; see bwreport " +
                     command + " --help");
  } catch (const po::error& e) {
    throw UsageError("bwreport " + command + ": " + e.what());
  }
  parsed.help = parsed.options["help"].as<bool>();
  if (parsed.options.count("bwreport-positional"))
    parsed.positional = parsed.options["bwreport-positional"].as<std::vector<std::string>>();
  if (parsed.help) return parsed;
  const int n = static_cast<int>(parsed.positional.size());
  if (n < min_positional || (max_positional >= 0 && n > max_positional))
    throw UsageError("bwreport " + command + ": expected " +
                     (min_positional == max_positional ? std::to_string(min_positional)
                      : max_positional < 0         ? "at least " + std::to_string(min_positional)
                      : min_positional == 0        ? "at most " + std::to_string(max_positional)
                                                   : std::to_string(min_positional) + " to " + std::to_string(max_positional)) +
                     " file argument" + (max_positional == 1 ? "" : "s") + ", got " + std::to_string(n) +
                     "; see bwreport " + command + " --help");
  return parsed;
}

void refuse_output_over_input(const std::string& command, const std::string& what, const std::string& output,
                              const std::vector<std::string>& inputs) {
  for (const std::string& input : inputs)
    if (same_file(output, input))
      throw UsageError("bwreport " + command + ": " + what + " '" + printable_text(output, 200) + "' is the input '" +
                       printable_text(input, 200) + "'; allowed: a file that is none of the inputs (bwreport never writes over an input)");
}

void refuse_repeated_inputs(const std::string& command, const std::vector<std::string>& inputs,
                            const std::string& allowed) {
  for (std::size_t i = 0; i < inputs.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (same_file(inputs[i], inputs[j]))
        throw UsageError("bwreport " + command + ": '" + printable_text(inputs[i], 200) + "' and '" +
                         printable_text(inputs[j], 200) + "' are the same file; allowed: " + allowed);
}

int run_report_command(const ReportCommand& command, const CommandArgs& args, std::ostream& out, std::ostream& err) {
  // Whatever a command prints reaches `out` as terminal_text: no raw
  // control byte (core/PrintableText.hpp), whatever stream `out` is.
  TerminalTextBuffer escaping(out.rdbuf());
  std::ostream safe_out(&escaping);
  // A message is one line of bounded length, whatever text of a file it quotes.
  try {
    const int code = command.run(args, safe_out);
    safe_out.flush();
    return code;
  } catch (const UsageError& e) {  // bad arguments, or a bad input file
    err << "bwreport: error: " << printable_text(e.what(), 1000) << std::endl;
    return kExitUsage;
  } catch (const std::exception& e) {
    err << "bwreport: error: " << printable_text(e.what(), 1000) << std::endl;
    return kExitFailure;
  }
}

int with_command_name(const char* command, int (*body)(const CommandArgs&, std::ostream&), const CommandArgs& args,
                      std::ostream& out) {
  const std::string prefix = std::string("bwreport ") + command + ": ";
  // parse_command's messages already name the command: one prefix, not two.
  const auto named = [&prefix](const char* what) {
    return std::string(what).rfind(prefix, 0) == 0 ? std::string(what) : prefix + what;
  };
  try {
    return body(args, out);
  } catch (const UsageError& e) {
    throw UsageError(named(e.what()));
  } catch (const std::exception& e) {
    throw RuntimeFailure(named(e.what()));
  }
}

void print_command_help(std::ostream& out, const ReportCommand& command, const po::options_description& desc) {
  out << "Usage: bwreport " << command.synopsis << "\n";
  if (!desc.options().empty()) out << desc;
}

}  // namespace bws::report
