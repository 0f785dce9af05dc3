#pragma once
// The opening shared by the bwreport commands that read a survey's flags
// (flags, retest): their options, their help, the file checked.
#include <optional>
#include <ostream>
#include <string>

#include <boost/program_options/variables_map.hpp>

#include "h5/ResultFile.hpp"
#include "report/ReportCommand.hpp"

namespace bws::report {

struct FlagsInput {
  std::string path;
  h5::ResultReader file;
  boost::program_options::variables_map options;  // the --flags.* overrides given
};

// Parses `args` (FILE and the --flags.* overrides); prints the command's
// help and returns nothing when --help was given. Throws UsageError for a
// file that is not a survey file.
std::optional<FlagsInput> open_flags_input(const ReportCommand& command, const CommandArgs& args, std::ostream& out);

}  // namespace bws::report
