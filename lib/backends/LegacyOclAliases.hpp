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
// Both spellings with different values are a usage error.
#include "core/ProgramOptionsFwd.hpp"

#include "core/Config.hpp"

namespace bws::backends {

void add_legacy_ocl_options(boost::program_options::options_description& desc);

// Rewrites `config` to what the aliases mean; UsageError naming both
// spellings when they disagree, or --ocl.tests naming an unknown part.
void resolve_legacy_ocl_aliases(Config& config);

}  // namespace bws::backends
