#include "report/PlotCommand.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <ostream>
#include <set>

#include "bws/Version.hpp"
#include "core/Errors.hpp"
#include "core/PrintableText.hpp"
#include "h5/ResultFile.hpp"
#include "report/HistoryChangesHook.hpp"
#include "report/ReportCommand.hpp"
#include "report/SurveyTables.hpp"

namespace bws::report {
namespace {

namespace fs = std::filesystem;

const char* const kUsage =
    "Usage: bwreport plot FILE... -o DIR [--ai X] [--type double|float] [--history ARCHIVE]\n"
    "  FILE...         survey files (a merged scaling-study file too); only their HDF5 content is read\n"
    "  -o, --out DIR   directory for the PNGs and index.html (created)\n"
    "  --ai X          a kernel's arithmetic intensity (FLOP/byte) drawn on the roofline plot\n"
    "  --type T        which ceilings the roofline plot draws: double (default) or float\n"
    "  --history A     a history archive (bwreport history add): adds a History section, the flagged nodes'\n"
    "                  series and the change points of the survey's nodes (DIR/history_changes.tsv); default none\n";

// The writer plot_command() was handed (apps/bwreport.cpp).
HistoryChangesWriter history_changes_writer = nullptr;

// DIR/history_changes.tsv: the change points of the files' hosts, for the
// report's History section (report_sections/history.py).
void write_survey_changes(const std::string& archive, const std::vector<std::string>& files,
                          const std::string& out_dir) {
  std::set<std::string> hosts;  // a host in several files is asked for once
  for (const std::string& f : files)
    for (const auto& [host, cohort] : read_node_cohorts(h5::ResultReader::open(f))) hosts.insert(host);
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) throw UsageError("-o: cannot create '" + printable_text(out_dir, 200) + "': " + ec.message());
  if (!history_changes_writer) throw UsageError("--history: this bwreport was built without the history archive");
  history_changes_writer(archive, {hosts.begin(), hosts.end()},
                            (fs::path(out_dir) / "history_changes.tsv").string());
}

int run_plot(const CommandArgs& args, std::ostream& out) {
  std::vector<std::string> files, extra;
  std::string out_dir, archive;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* name) {
      if (i + 1 >= args.size()) throw UsageError(std::string(name) + " needs a value; see bwreport plot --help");
      return args[++i];
    };
    if (a == "--help" || a == "-h") {
      out << kUsage;
      return kExitOk;
    } else if (a == "-o" || a == "--out") {
      out_dir = value("-o");
    } else if (a == "--history") {
      archive = value("--history");
    } else if (a == "--ai" || a == "--type") {
      extra.push_back(a);
      extra.push_back(value(a.c_str()));
    } else if (!a.empty() && a[0] == '-') {
      throw UsageError("unknown option '" + printable_text(a, 100) +
                       "'; allowed: -o DIR, --ai X, --type double|float, --history ARCHIVE");
    } else {
      files.push_back(a);
    }
  }
  if (files.empty()) throw UsageError("no FILE; allowed: one or more survey files, then -o DIR");
  if (out_dir.empty()) throw UsageError("-o DIR is missing; allowed: a directory for the PNGs and index.html");
  for (const std::string& f : files) {
    std::error_code ec;
    if (!fs::is_regular_file(f, ec))
      throw UsageError("'" + printable_text(f, 200) + "' is not a file; allowed: survey files");
  }
  std::error_code exists_ec;
  const bool out_dir_is_new = !fs::exists(out_dir, exists_ec);
  // Bad input leaves no folder behind that this run made (the changes table
  // comes before the script, which checks the rest).
  auto undo_out_dir = [&] {
    if (!out_dir_is_new) return;
    std::error_code ec;
    fs::remove(fs::path(out_dir) / "history_changes.tsv", ec);
    fs::remove(out_dir, ec);  // only when empty
  };
  if (!archive.empty()) {
    std::error_code ec;
    if (!fs::is_regular_file(archive, ec))
      throw UsageError("--history: '" + printable_text(archive, 200) + "' is not a file; allowed: a history archive");
    try {
      write_survey_changes(archive, files, out_dir);
    } catch (const UsageError&) {
      undo_out_dir();
      throw;
    }
    extra.push_back("--history");
    extra.push_back(archive);
  }
  const auto script = find_report_script(self_executable("bwreport"));
  if (!script)
    throw RuntimeFailure(std::string("cannot find analysis/") + kReportScriptName +
                         " (set BWSURVEY_ANALYSIS_DIR to the analysis folder of the source tree)");
  std::vector<std::string> argv = {python_interpreter(), *script, "-o", out_dir};
  for (const std::string& e : extra) argv.push_back(e);
  argv.push_back("--");
  for (const std::string& f : files) argv.push_back(f);
  // The script reads the node verdicts through `bwreport export`: this one.
  ::setenv("BWSURVEY_BWREPORT", self_executable("bwreport").c_str(), 1);
  out.flush();
  const int code = run_program(argv);
  if (code == kExitUsage) undo_out_dir();
  return code == 0 ? kExitOk : code == kExitUsage ? kExitUsage : kExitFailure;
}

}  // namespace

std::string python_interpreter() {
  if (const char* p = std::getenv("BWSURVEY_PYTHON"); p && *p) return p;
  if (::access("/usr/bin/python3", X_OK) == 0) return "/usr/bin/python3";
  return "python3";
}

std::string self_executable(const std::string& fallback) {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fallback : p.string();
}

// Runs argv; returns its exit status. Throws RuntimeFailure when it could
// not start (the child's 127).
int run_program(const std::vector<std::string>& argv) {
  std::vector<char*> c_argv;
  for (const std::string& a : argv) c_argv.push_back(const_cast<char*>(a.c_str()));
  c_argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw RuntimeFailure(std::string("cannot start ") + argv[0] + ": " + std::strerror(errno));
  if (pid == 0) {
    ::execvp(c_argv[0], c_argv.data());
    _exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw RuntimeFailure(std::string("waitpid: ") + std::strerror(errno));
  if (WIFEXITED(status)) {
    if (WEXITSTATUS(status) == 127) throw RuntimeFailure("could not run " + argv[0]);
    return WEXITSTATUS(status);
  }
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

namespace {

// The executable lies under the build tree it was built in (not installed,
// not copied elsewhere): only then may it use the source tree's analysis/.
bool inside_build_tree(const std::string& executable_path) {
  std::error_code ec;
  const fs::path exe = fs::weakly_canonical(executable_path, ec);
  if (ec) return false;
  const fs::path build = fs::weakly_canonical(BWS_BINARY_DIR, ec);
  if (ec) return false;
  return std::mismatch(build.begin(), build.end(), exe.begin(), exe.end()).first == build.end();
}

}  // namespace

std::optional<std::string> find_analysis_script(const std::string& script_name, const std::string& executable_path) {
  std::vector<fs::path> candidates;
  if (const char* dir = std::getenv("BWSURVEY_ANALYSIS_DIR"); dir && *dir) candidates.emplace_back(dir);
  const fs::path bin_dir = fs::path(executable_path).parent_path();
  candidates.push_back(bin_dir / ".." / "share" / "bwsurvey" / "analysis");  // installed
  if (inside_build_tree(executable_path)) {
    candidates.push_back(bin_dir / ".." / ".." / "analysis");     // build/apps/bwreport
    candidates.push_back(fs::path(BWS_SOURCE_DIR) / "analysis");  // the tree it was built from
  }
  for (const fs::path& dir : candidates) {
    std::error_code ec;
    const fs::path script = dir / script_name;
    if (fs::is_regular_file(script, ec)) return fs::weakly_canonical(script, ec).string();
  }
  return std::nullopt;
}

std::optional<std::string> find_report_script(const std::string& executable_path) {
  return find_analysis_script(kReportScriptName, executable_path);
}

ReportCommand plot_command(HistoryChangesWriter history_changes) {
  history_changes_writer = history_changes;
  return {"plot", "plot FILE... -o DIR   PNGs and index.html of the survey",
          [](const CommandArgs& args, std::ostream& out) { return with_command_name("plot", run_plot, args, out); }};
}

}  // namespace bws::report
