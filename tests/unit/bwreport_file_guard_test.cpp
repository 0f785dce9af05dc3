// bwreport's files in and out (core/FileGuard): every output of a command
// (merge OUT, scaling --out, export --dir/--out, plot's history table) is
// never an input, never a link, device, FIFO, socket or folder (with --force
// too), is checked before anything is printed, and is written all or
// nothing; exports others parse are valid for their real parsers (json,
// csv, promtool) whatever bytes the file's host names hold; text of a file
// reaches the terminal escaped. Each case runs bwreport as a process on
// files made here, in the test's own directory.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

#include "FlagsTableFixture.hpp"
#include "TestPrograms.hpp"
#include "core/ResultColumns.hpp"
#include "h5/ResultFile.hpp"
#include "model/NodeFlags.hpp"
#include "report/SurveyTables.hpp"
#include "TestSupport.hpp"

namespace fs = std::filesystem;
using bws::Table;
using bws::test::RunResult;
using bws::test::slurp;

namespace {

std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

bool has_raw_control(const std::string& text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && c != '\n' && c != '\t') || u == 0x7f;
  });
}

std::size_t lines_of(const std::string& text) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')); }

// Host names a parser of an export must survive: a byte that is not UTF-8,
// a newline, a quote, a terminal escape sequence.
const std::vector<std::string> kHostileHosts = {"n\xff" "1", "n\n2", "n\"3", "n\x1b[31m4"};

class BwreportFileGuard : public bws::test::TempDirTest {
 protected:
  BwreportFileGuard() : TempDirTest("bws_file_guard") {}

  RunResult run(const std::string& args) {
    return bws::test::run_shell("cd " + quoted(dir_.string()) + " && " + quoted(bws::test::bwreport_program()) + " " + args,
                                dir_ / "stdout.txt", dir_ / "stderr.txt");
  }

  // A survey of the given hosts with a node table and a confirmed flag on
  // the first; `mistyped`: the node table's cores are text (a table the
  // computed view nodes/cohorts cannot read, after every stored table).
  std::string write_survey(const std::string& name, const std::vector<std::string>& hosts, bool mistyped = false) {
    const std::string path = file(name);
    bws::h5::ResultFile f = bws::h5::ResultFile::create(path, false);
    f.set_attribute("/", "tool_version", std::string("test\xff\n\"v\x1b[0m"));
    f.set_attribute("/", "status", std::string("complete"));
    f.set_attribute("/", "created_utc", std::string("2025-01-31T12:00:00Z"));
    f.set_attribute("/", "n_nodes", static_cast<std::int64_t>(hosts.size()));
    f.set_attribute("/", "n_ranks", static_cast<std::int64_t>(hosts.size()));
    f.set_attribute("/provenance", "slurm_job_id", std::string("42\xff\n\"\x1b[2J"));
    Table nodes("nodes/table", {bws::text_column("host", bws::kHostWidth), bws::text_column("cpu_model", 96),
                                mistyped ? bws::text_column("cores", 16) : bws::int_column("cores"),
                                bws::int_column("memory_bytes", "B")});
    for (const std::string& h : hosts)
      nodes.add_row({{"host", h},
                     {"cpu_model", "cpu \xfe"},
                     {"cores", mistyped ? bws::Value(std::string("eight")) : bws::Value(std::int64_t{8})},
                     {"memory_bytes", std::int64_t{1} << 34}});
    f.append(nodes);
    f.append(bws::test::flags_table(hosts.front()));
    f.close();
    return path;
  }


  // A merged scaling study of two runs (what bwreport merge writes, as far
  // as bwreport scaling reads it).
  std::string write_study(const std::string& name) {
    const std::string path = file(name);
    bws::h5::ResultFile f = bws::h5::ResultFile::create(path, false);
    f.set_attribute("/", "file_kind", std::string(bws::report::kMergedFileKind));
    f.set_attribute("/", "status", std::string("complete"));
    for (int n : {1, 2}) {
      const std::string group = "runs/0" + std::to_string(n) + "-n" + std::to_string(n);
      Table summary(group + "/beff/summary", {bws::text_column("ring_kind", 16), bws::int_column("ranks"),
                                              bws::real_column("b_eff_Bps", "B/s")});
      summary.add_row({{"ring_kind", "natural"}, {"ranks", std::int64_t{2} * n}, {"b_eff_Bps", 1e9 * n}});
      f.append(summary);
      f.set_attribute("/" + group, "n_nodes", static_cast<std::int64_t>(n));
    }
    f.close();
    return path;
  }

  // Runs /usr/bin/python3 with `script` (sys.argv[1] = `arg`); its exit code.
  RunResult python(const std::string& script, const std::string& arg) {
    std::ofstream(file("check.py")) << script;
    return bws::test::run_shell("/usr/bin/python3 " + quoted(file("check.py")) + " " + quoted(arg),
                                dir_ / "py-out.txt", dir_ / "py-err.txt");
  }

  // A refusal: exit 2, one line on stderr, nothing on stdout.
  static void expect_refused(const RunResult& r, const std::string& needle) {
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_EQ(lines_of(r.err), 1u) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
  }
};

// Each kind of path that is not a regular file, made at `path`; "" when
// this machine cannot make it (a device needs CAP_MKNOD).
std::string make_special(const std::string& kind, const std::string& path, const std::string& link_target) {
  if (kind == "fifo") return ::mkfifo(path.c_str(), 0644) == 0 ? "a FIFO" : "";
  if (kind == "directory") return ::mkdir(path.c_str(), 0755) == 0 ? "a directory" : "";
  if (kind == "symlink") return ::symlink(link_target.c_str(), path.c_str()) == 0 ? "a symbolic link" : "";
  if (kind == "device")  // /dev/null's numbers, in the test's own directory
    return ::mknod(path.c_str(), S_IFCHR | 0644, makedev(1, 3)) == 0 ? "a character device" : "";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  const bool made = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  ::close(fd);
  return made ? "a socket" : "";
}

TEST_F(BwreportFileGuard, ExportedJsonAndCsvAreReadByTheirParsersWhateverTheHostNames) {
  const std::string survey = write_survey("hostile.h5", kHostileHosts);
  ASSERT_EQ(run("export --json hostile.h5 --dir json").exit_code, 0) << slurp(file("stderr.txt"));
  ASSERT_EQ(run("export --csv hostile.h5 --dir csv").exit_code, 0) << slurp(file("stderr.txt"));
  // Invalid UTF-8 becomes the four characters \xNN (the JSON text "\\xff");
  // everything else reads back as it was written.
  const RunResult r = python(R"(
import csv, glob, json, os, sys
d = sys.argv[1]
jsons, csvs = glob.glob(os.path.join(d, "json", "*.json")), glob.glob(os.path.join(d, "csv", "*.csv"))
assert len(jsons) > 2 and len(jsons) == len(csvs), (jsons, csvs)
for p in jsons:
    with open(p, encoding="utf-8") as f:
        json.load(f)
for p in csvs:
    with open(p, encoding="utf-8", newline="") as f:
        list(csv.reader(f))
want = ["n\\xff1", "n\n2", 'n"3', "n\x1b[31m4"]
with open(os.path.join(d, "json", "nodes_table.json"), encoding="utf-8") as f:
    assert [r["host"] for r in json.load(f)] == want
with open(os.path.join(d, "csv", "nodes_table.csv"), encoding="utf-8", newline="") as f:
    assert [r["host"] for r in csv.DictReader(f)] == want
)",
                              dir_.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(BwreportFileGuard, PrometheusOfHostileTextPassesPromtool) {
  if (std::system("command -v promtool >/dev/null 2>&1") != 0) GTEST_SKIP() << "promtool is not installed";
  write_survey("hostile.h5", kHostileHosts);
  const RunResult r = run("export --prometheus hostile.h5 --out metrics.prom");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(slurp(file("metrics.prom")).find("bwsurvey_flagged{host="), std::string::npos);
  const RunResult check = bws::test::run_shell("promtool check metrics <" + quoted(file("metrics.prom")),
                                               dir_ / "p-out.txt", dir_ / "p-err.txt");
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
}

TEST_F(BwreportFileGuard, AnExportThatFailsLeavesNothingBehind) {
  write_survey("mistyped.h5", {"n1", "n2"}, true);
  const RunResult r = run("export --csv mistyped.h5 --dir new");
  ASSERT_NE(r.exit_code, 0) << "the mistyped table was exported: " << r.out;
  EXPECT_FALSE(fs::exists(file("new"))) << "a failed export left its folder";
  EXPECT_EQ(r.out, "");
  fs::create_directory(file("kept"));
  std::ofstream(file("kept/mine.txt")) << "a user's file\n";
  EXPECT_NE(run("export --csv mistyped.h5 --dir kept").exit_code, 0);
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(file("kept"))) left.push_back(e.path().filename().string());
  EXPECT_EQ(left, std::vector<std::string>{"mine.txt"});
  EXPECT_NE(run("export --csv mistyped.h5 --table nodes/cohorts --out one.csv").exit_code, 0);
  EXPECT_FALSE(fs::exists(file("one.csv")));
}

TEST_F(BwreportFileGuard, AnEarlierExportIsReplacedOnlyWithForce) {
  write_survey("s.h5", {"n1", "n2"});
  ASSERT_EQ(run("export --csv s.h5 --dir out").exit_code, 0);
  const std::string before = slurp(file("out/nodes_table.csv"));
  expect_refused(run("export --csv s.h5 --dir out"), "--force");
  EXPECT_EQ(run("export --csv s.h5 --dir out --force").exit_code, 0);
  EXPECT_EQ(slurp(file("out/nodes_table.csv")), before);
}

TEST_F(BwreportFileGuard, ScalingsScratchFileIsNeverAnInput) {
  write_study("study.h5");
  fs::copy_file(file("study.h5"), file("IN.part"));
  const std::string input = slurp(file("IN.part"));
  const RunResult r = run("scaling IN.part --out IN");
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 3) << r.err;
  EXPECT_EQ(slurp(file("IN.part")), input) << "the input named like the scratch file changed";
  ASSERT_TRUE(fs::is_regular_file(file("IN")));
  EXPECT_TRUE(bws::h5::ResultReader::open(file("IN")).exists("/scaling/fit"));
  for (const auto& e : fs::directory_iterator(dir_))
    EXPECT_EQ(e.path().filename().string().find(".IN."), std::string::npos) << "scratch left: " << e.path();
}

TEST_F(BwreportFileGuard, ScalingOntoItsInputPrintsNothing) {
  write_study("study.h5");
  ::symlink("study.h5", file("link.h5").c_str());
  const std::string input = slurp(file("study.h5"));
  for (const char* out : {"study.h5", "link.h5", "./study.h5"}) {
    SCOPED_TRACE(out);
    expect_refused(run(std::string("scaling study.h5 --force --out ") + out), "is the input");
    EXPECT_EQ(slurp(file("study.h5")), input);
  }
}

// Every output option of bwreport, onto each kind of path that is not a
// regular file: refused with --force too, before anything is printed, and
// the path is what it was.
TEST_F(BwreportFileGuard, OutputsThatAreNotRegularFilesAreRefusedWithForce) {
  write_survey("s.h5", {"n1", "n2"});
  write_study("study.h5");
  std::ofstream(file("elsewhere.txt")) << "not an output\n";
  fs::create_directory(file("exports"));
  const std::vector<std::pair<std::string, std::string>> commands = {
      {"merge --force TARGET s.h5", "TARGET"},
      {"scaling study.h5 --force --out TARGET", "TARGET"},
      {"export --csv s.h5 --table nodes/table --force --out TARGET", "TARGET"},
      {"export --prometheus s.h5 --force --out TARGET", "TARGET"},
      {"export --csv s.h5 --force --dir exports", "exports/nodes_table.csv"},
  };
  for (const char* kind : {"fifo", "socket", "directory", "symlink", "device"}) {
    for (const auto& [command, target] : commands) {
      const std::string path = file(target);
      const std::string noun = make_special(kind, path, file("elsewhere.txt"));
      if (noun.empty()) continue;  // no device without CAP_MKNOD
      std::string args = command;
      if (const auto at = args.find("TARGET"); at != std::string::npos) args.replace(at, 6, target);
      SCOPED_TRACE(args + " onto " + noun);
      expect_refused(run(args), noun);
      struct stat st {};
      ASSERT_EQ(::lstat(path.c_str(), &st), 0) << "the " << kind << " was removed";
      EXPECT_EQ(slurp(file("elsewhere.txt")), "not an output\n");
      fs::remove(path);
    }
  }
}

TEST_F(BwreportFileGuard, MergePrintsTheFilesTextEscaped) {
  const std::string path = write_survey("a.h5", {"n1"});
  {
    bws::h5::ResultFile f = bws::h5::ResultFile::open_existing(path, "test");
    f.set_attribute("/", "status", std::string("complete\x1b]0;owned\x07\nmerged 9 runs into /x.h5"));
    f.close();
  }
  const RunResult r = run("merge m.h5 a.h5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(has_raw_control(r.out)) << r.out;
  EXPECT_EQ(r.out.find("\nmerged 9"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.rfind("merged 9", 0), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\\x1b]0;owned\\x07\\nmerged 9"), std::string::npos) << r.out;
}

TEST_F(BwreportFileGuard, PlotRefusesTheArchiveAsItsHistoryTable) {
  write_survey("s.h5", {"n1", "n2"});
  fs::create_directory(file("report"));
  std::ofstream(file("report/history_changes.tsv"), std::ios::binary) << std::string("SQLite format 3\0years", 22);
  const std::string archive = slurp(file("report/history_changes.tsv"));
  expect_refused(run("plot s.h5 -o report --history report/history_changes.tsv"), "input");
  EXPECT_EQ(slurp(file("report/history_changes.tsv")), archive);
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(file("report"))) left.push_back(e.path().filename().string());
  EXPECT_EQ(left, std::vector<std::string>{"history_changes.tsv"});
  // A link there to the archive kept elsewhere: refused the same way.
  fs::rename(file("report/history_changes.tsv"), file("archive.sqlite"));
  ::symlink("../archive.sqlite", file("report/history_changes.tsv").c_str());
  expect_refused(run("plot s.h5 -o report --history archive.sqlite"), "history_changes.tsv");
  EXPECT_EQ(slurp(file("archive.sqlite")), archive);
}

TEST_F(BwreportFileGuard, InputsThatAreNotRegularFilesAreRefusedWithoutBlocking) {
  ASSERT_EQ(::mkfifo(file("fifo.h5").c_str(), 0644), 0);
  write_survey("s.h5", {"n1", "n2"});
  expect_refused(run("plot fifo.h5 -o report"), "a FIFO");
  expect_refused(run("plot s.h5 -o report --history fifo.h5"), "a FIFO");
  EXPECT_FALSE(fs::exists(file("report")));
}

}  // namespace
