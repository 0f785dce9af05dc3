#pragma once
// bwsurvey's command line and INI file (Boost.Program_options): the
// survey's own options plus every registered benchmark's, which the
// benchmarks declare themselves. Every option is also an INI key; the
// command line wins over the file.
#include <functional>
#include <string>
#include <vector>

#include "core/ProgramOptionsFwd.hpp"

#include "core/Config.hpp"
#include "core/OptionAliases.hpp"

namespace bws::run {

struct CommandLine {
  Config config;            // every option, with defaults filled in
  bool help = false;
  bool version = false;     // --version in a --config file (the command line's is seen before MPI starts)
  bool print_config = false;
  std::string text;         // the command line as typed, for the file
  // The old names given on the command line or in the --config file (not
  // the stored /config of --resume), one each: the run prints their lines
  // on rank 0 once it is accepted (run/Coordinator.cpp).
  std::vector<Deprecation> deprecations;
};

// --version anywhere on the command line: bwsurvey prints the version text
// and exits before MPI starts (like git, whatever else is given).
bool asks_for_version(int argc, const char* const argv[]);
// --help (or -h) and nothing else: printed before MPI starts too, so
// help2man and a login node need no MPI runtime.
bool asks_for_help_only(int argc, const char* const argv[]);
// All options, grouped for --help.
boost::program_options::options_description survey_options();

// Reads the text of a --config file (rank 0 reads it and broadcasts it, so
// every rank parses the same text).
using ConfigReader = std::function<std::string(const std::string& path)>;

// Reads the /config text of a survey file that --resume names (rank 0 reads
// it and broadcasts it). Throws UsageError naming --resume.
using ResumeConfigReader = std::function<std::string(const std::string& path)>;

// Parses argv and the --config file. Throws UsageError with one line naming
// the problem: unknown option, missing value, INI syntax (with the line
// number), unknown INI key. With --resume FILE the configuration is FILE's
// /config (read by read_resume_config): an option given on the command line
// must have the value stored there, --config and --out are not allowed
// with it, and out is set to FILE.
CommandLine parse_command_line(int argc, const char* const argv[], const ConfigReader& read_config,
                               const ResumeConfigReader& read_resume_config = nullptr);

// The keys left out of the /config text (they are about this invocation,
// not the measurement): help, print-config, config, force.
const std::set<std::string, std::less<>>& invocation_only_keys();

}  // namespace bws::run
