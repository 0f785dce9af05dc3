#pragma once
// Old option names (aliases) and the deprecation line each prints. An alias
// is registered with Boost.Program_options as an option of its own whose
// value semantic names the option it stands for, so the parser can tell
// which of the keys a user gave (on the command line, in a --config INI
// file) were old names. The lines are data here: benchmarks never print,
// bwsurvey prints them once, on rank 0. A stored /config (--resume,
// bwreport) is not a command line and gives none.
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "core/ProgramOptionsFwd.hpp"

namespace bws {

struct Deprecation {
  std::string old_text;  // "--stream.ntimes", "--tests ocl"
  std::string use;       // "--stream.reps"
};

// "--stream.ntimes is deprecated: use --stream.reps"
std::string deprecation_line(const Deprecation& d);

// Registers `old_name` as an alias of `new_name` (the same values): with a
// default only where `default_text` is given (shown by --help; a value left
// at it was not given), alone meaning "on" where `flag`.
void add_alias_option(boost::program_options::options_description& desc, const std::string& old_name,
                      const std::string& new_name, const std::string& help, const char* default_text = nullptr,
                      bool flag = false);

// One deprecation per alias (registered by add_alias_option in `desc`)
// among `given_keys`, in the order of `desc`.
std::vector<Deprecation> alias_deprecations(const boost::program_options::options_description& desc,
                                            const std::set<std::string, std::less<>>& given_keys);

}  // namespace bws
