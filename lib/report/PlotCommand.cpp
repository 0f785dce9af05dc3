#include "report/PlotCommand.hpp"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <ostream>
#include <set>

#include "bws/Version.hpp"
#include "core/Errors.hpp"
#include "core/FileGuard.hpp"
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

// The file of the change points in the report's folder.
constexpr const char* kHistoryChangesName = "history_changes.tsv";

// The writer plot_command() was handed (apps/bwreport.cpp).
HistoryChangesWriter history_changes_writer = nullptr;

// The folders `dir` needs that are missing, made (parents first); destroyed,
// it removes those it made that are empty again (the script removes what it
// wrote when it fails): nothing this run did not make is ever removed.
class MadeDirectories {
 public:
  explicit MadeDirectories(const std::string& dir) {
    std::vector<fs::path> missing;
    for (fs::path p = fs::absolute(dir); path_kind(p.string()) == PathKind::Missing && p != p.parent_path();
         p = p.parent_path())
      missing.push_back(p);
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
      if (::mkdir(it->c_str(), 0777) != 0)
        throw UsageError("-o: cannot create '" + printable_text(it->string(), 200) + "': " + std::strerror(errno) +
                         "; allowed: a directory that can be made");
      made_.push_back(it->string());
    }
  }
  MadeDirectories(const MadeDirectories&) = delete;
  MadeDirectories& operator=(const MadeDirectories&) = delete;
  ~MadeDirectories() {
    for (auto it = made_.rbegin(); it != made_.rend(); ++it) ::rmdir(it->c_str());  // only when empty
  }

 private:
  std::vector<std::string> made_;
};

// The change points of the files' hosts, for the report's History section
// (report_sections/history.py), into a fresh scratch folder in DIR (the
// writer gets a new path, whatever it does with it): the script copies them
// into DIR/history_changes.tsv with the rest of the report.
std::string write_survey_changes(const std::string& archive, const std::vector<std::string>& files,
                                 ScratchDirectory& scratch) {
  std::set<std::string> hosts;  // a host in several files is asked for once
  for (const std::string& f : files)
    for (const auto& [host, cohort] : read_node_cohorts(h5::ResultReader::open(f))) hosts.insert(host);
  if (!history_changes_writer) throw UsageError("--history: this bwreport was built without the history archive");
  const std::string path = scratch.file(kHistoryChangesName);
  history_changes_writer(archive, {hosts.begin(), hosts.end()}, path);
  return path;
}

// Every check on the paths before anything is made: the inputs are regular
// files (a FIFO is never opened), DIR is a directory or a new name, and
// DIR/history_changes.tsv, which the report writes, is none of the inputs
// (the archive) and nothing but a text file of ours.
void check_plot_paths(const std::vector<std::string>& files, const std::string& out_dir, const std::string& archive) {
  for (const std::string& f : files) require_regular_input("FILE", f);
  if (!archive.empty()) require_regular_input("--history", archive);
  const PathKind dir_kind = path_kind(out_dir);
  if (dir_kind != PathKind::Missing && dir_kind != PathKind::Directory)
    throw UsageError("-o: '" + printable_text(out_dir, 200) + "' is " + path_kind_noun(dir_kind) +
                     "; allowed: a directory (made when missing)");
  if (archive.empty() || dir_kind == PathKind::Missing) return;
  std::vector<std::string> inputs = files;
  inputs.push_back(archive);
  check_output_file((fs::path(out_dir) / kHistoryChangesName).string(), {"-o", true, inputs, OwnFile::Text});
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
  check_plot_paths(files, out_dir, archive);
  // Destroyed in reverse: the scratch folder goes before DIR, if made, is removed when empty.
  std::optional<MadeDirectories> made;
  std::optional<ScratchDirectory> scratch;
  if (!archive.empty()) {
    made.emplace(out_dir);
    scratch.emplace(out_dir, "-o");
    extra.push_back("--history");
    extra.push_back(archive);
    extra.push_back("--history-changes");
    extra.push_back(write_survey_changes(archive, files, *scratch));
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
