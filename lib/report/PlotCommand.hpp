#pragma once
// `bwreport plot FILE... -o DIR [--ai X] [--type double|float]`
// (plot_command() in ReportCommand.hpp): runs the report generator (analysis/survey_report.py, Python with h5py and
// matplotlib) on survey files, which writes PNGs and DIR/index.html.
//
// The script is looked for, in order: $BWSURVEY_ANALYSIS_DIR; next to the
// installed binary (<prefix>/share/bwsurvey/analysis, as `cmake --install`
// puts it); and, only for a binary inside the build tree it was built in,
// in the source tree of the build directory (<build>/apps/bwreport ->
// <source>/analysis) or the source tree it was built from. An installed
// bwreport never looks into the source tree.
// The script gets BWSURVEY_BWREPORT, this binary: it reads the node verdicts
// through `bwreport export --table nodes/verdicts`.
// Files: FILE... and --history must be regular files (core/FileGuard), DIR a
// directory or a new name; with --history, DIR/history_changes.tsv (which
// the report writes) is checked against the inputs before the change points
// are written, into a fresh scratch folder that the script copies from.
// The script writes the report through analysis/file_guard.py. plot removes
// only what it made (its scratch folder, DIR when it made DIR and DIR is
// empty again).
// The interpreter is $BWSURVEY_PYTHON, else /usr/bin/python3 (Debian's,
// which has python3-h5py and python3-matplotlib), else python3 on PATH.
#include <optional>
#include <string>
#include <vector>

namespace bws::report {

inline constexpr const char* kReportScriptName = "survey_report.py";

// The first candidate directory holding the script, or nullopt.
std::optional<std::string> find_report_script(const std::string& executable_path);
// The same search for any script of the analysis folder (history_plot.py).
std::optional<std::string> find_analysis_script(const std::string& script_name, const std::string& executable_path);

// $BWSURVEY_PYTHON, else /usr/bin/python3, else python3 on PATH.
std::string python_interpreter();
// This process's executable (/proc/self/exe), else `fallback`.
std::string self_executable(const std::string& fallback);
// Runs argv and returns its exit status (128 + signal when killed);
// RuntimeFailure when it could not start.
int run_program(const std::vector<std::string>& argv);

}  // namespace bws::report
