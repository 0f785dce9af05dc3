#include "report/FlagsInput.hpp"

#include <boost/program_options/options_description.hpp>

#include "report/SurveyTables.hpp"

namespace po = boost::program_options;

namespace bws::report {

std::optional<FlagsInput> open_flags_input(const ReportCommand& command, const CommandArgs& args, std::ostream& out) {
  po::options_description desc("Options");
  add_flag_override_options(desc);
  ParsedCommand parsed = parse_command(command.name, args, desc, 1, 1);
  if (parsed.help) {
    print_command_help(out, command, desc);
    return std::nullopt;
  }
  const std::string path = parsed.positional[0];
  auto file = h5::ResultReader::open(path);
  require_survey_file(file, path, command.name);
  return FlagsInput{path, std::move(file), std::move(parsed.options)};
}

}  // namespace bws::report
