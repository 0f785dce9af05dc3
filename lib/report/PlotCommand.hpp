#pragma once
// `bwreport plot FILE... -o DIR [--ai X] [--type double|float]`
// (plot_command() in ReportCommand.hpp): runs the report generator (analysis/survey_report.py, Python with h5py and
// matplotlib) on survey files, which writes PNGs and DIR/index.html.
//
// The script is looked for, in order: $BWSURVEY_ANALYSIS_DIR; next to the
// installed binary (<prefix>/share/bwsurvey/analysis, as `cmake --install`
// puts it); in the source tree of a build directory (<build>/apps/bwreport
// -> <source>/analysis); in the source tree this binary was built from.
// The interpreter is $BWSURVEY_PYTHON, else /usr/bin/python3 (Debian's,
// which has python3-h5py and python3-matplotlib), else python3 on PATH.
#include <optional>
#include <string>

namespace bws::report {

inline constexpr const char* kReportScriptName = "survey_report.py";

// The first candidate directory holding the script, or nullopt.
std::optional<std::string> find_report_script(const std::string& executable_path);

}  // namespace bws::report
