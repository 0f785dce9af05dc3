#pragma once
// The command line of the time when the OpenCL device was a benchmark of
// its own (`--tests ocl`), kept as documented aliases:
//   --tests ocl      stream and bs on backend ocl, and beff with
//                    --beff.path device, as --ocl.tests selects (default
//                    stream,bs,beff); with stream or bs also named, ocl is
//                    added to their --*.backend list (both run);
//   --ocl.elements   alias of --stream.elements
//   --ocl.ntimes     alias of --stream.reps (itself once --stream.ntimes)
//   --ocl.type       alias of --stream.type
// Both spellings with different values are a usage error. Each, given on
// the command line or in a --config file, is a deprecation (OptionAliases).
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "core/ProgramOptionsFwd.hpp"

#include "core/Config.hpp"
#include "core/OptionAliases.hpp"

namespace bws::backends {

void add_legacy_ocl_options(boost::program_options::options_description& desc);

// Rewrites `config` to what the aliases mean; UsageError naming both
// spellings when they disagree, or --ocl.tests naming an unknown part.
void resolve_legacy_ocl_aliases(Config& config);

// The deprecations of --tests ocl and --ocl.tests among `given_keys` (the
// keys of the command line and the --config file), read from `config`
// before resolve_legacy_ocl_aliases rewrites it. The option aliases
// (--ocl.ntimes, ...) are reported with every other alias (alias_deprecations).
std::vector<Deprecation> legacy_ocl_deprecations(const Config& config,
                                                 const std::set<std::string, std::less<>>& given_keys);

}  // namespace bws::backends
