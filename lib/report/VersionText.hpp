#pragma once
// The text of `bwsurvey --version` and `bwreport --version`: the version,
// the commit, the build type and options (core/BuildInfo.hpp), and the
// kernel instruction sets: the one STREAM's non-temporal kernels were
// compiled for, and the roofline FMA kernels compiled in with the one this
// CPU runs (the --roofline.isa auto choice). Needs no MPI.
#include <string>
#include <string_view>

namespace bws::report {

// "PROGRAM VERSION" on the first line (what help2man reads), then one
// "key: value" line each; ends with a newline.
std::string version_text(std::string_view program);

}  // namespace bws::report
