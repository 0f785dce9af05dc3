// The history commands' files: an archive path or a survey file that is a
// directory, a FIFO, a character device (made here with mknod) or a link
// to one is refused with exit 2 and one line, never opened; outputs
// (baseline --out, the changes table of plot --history, show --plot) never
// go onto the archive or onto anything but a regular file; text from the
// archive reaches the terminal and the TSV as printable text.
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/Errors.hpp"
#include "core/FileGuard.hpp"
#include "history/HistoryCommands.hpp"
#include "HistoryArchiveTestSupport.hpp"
#include "TestSupport.hpp"

namespace {

namespace fs = std::filesystem;
using bws::PathKind;
using bws::test::CommandResult;

CommandResult history(const std::vector<std::string>& args) {
  return bws::test::run_command(bws::history::history_command(), args);
}


void expect_refusal(const CommandResult& r, const std::string& what) {
  EXPECT_EQ(r.code, 2) << what << ": " << r.err;
  EXPECT_TRUE(r.out.empty()) << what << ": " << r.out;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << what << ": " << r.err;
}

class HistoryArchivePaths : public bws::test::TempDirTest {
 protected:
  HistoryArchivePaths() : TempDirTest("bws_history_paths") {}
  void SetUp() override {
    TempDirTest::SetUp();
    ::alarm(60);  // a FIFO opened by mistake blocks: fail instead of hanging
    bws::test::SurveySpec s;
    s.nodes = {{"n1", 10e9}, {"n2", 20e9}, {"n3", 30e9}};
    bws::test::write_survey(file("s1.h5"), s);
    ASSERT_EQ(history({"add", file("a.db"), file("s1.h5")}).code, 0);
  }
  void TearDown() override {
    ::alarm(0);
    TempDirTest::TearDown();
  }
  // name -> what it is: a directory, a FIFO, a character device (when this
  // user may make one) and a link to it.
  std::vector<std::pair<std::string, PathKind>> special_files() {
    std::vector<std::pair<std::string, PathKind>> made;
    fs::create_directory(file("dir"));
    made.push_back({file("dir"), PathKind::Directory});
    if (::mkfifo(file("fifo").c_str(), 0600) == 0) made.push_back({file("fifo"), PathKind::Fifo});
    if (::mknod(file("chardev").c_str(), S_IFCHR | 0600, makedev(1, 3)) == 0) {
      made.push_back({file("chardev"), PathKind::CharDevice});
      fs::create_symlink(file("chardev"), file("link-to-chardev"));
      made.push_back({file("link-to-chardev"), PathKind::CharDevice});
    }
    return made;
  }
};

TEST_F(HistoryArchivePaths, AnArchiveThatIsNotARegularFileIsRefusedWithExitTwoAndNeverOpened) {
  for (const auto& [path, kind] : special_files()) {
    for (const auto& args :
         {std::vector<std::string>{"add", path, file("s1.h5")}, {"show", path, "--node", "n1"}, {"changes", path},
          {"changes", path, "--format", "tsv"}, {"baseline", path, "--out", file("r.ini")}}) {
      const CommandResult r = history(args);
      expect_refusal(r, args[0] + " " + path);
      EXPECT_NE(r.err.find(bws::path_kind_noun(kind)), std::string::npos) << r.err;
      EXPECT_EQ(bws::path_kind(path), kind) << path;
    }
  }
  EXPECT_FALSE(fs::exists(file("r.ini")));
  // A link to nothing: add does not make a file where it points.
  fs::create_symlink(file("nowhere.db"), file("dangling.db"));
  expect_refusal(history({"add", file("dangling.db"), file("s1.h5")}), "dangling link");
  EXPECT_FALSE(fs::exists(file("nowhere.db")));
  // A missing archive: the readers do not make one.
  expect_refusal(history({"show", file("missing.db"), "--node", "n1"}), "missing");
  EXPECT_FALSE(fs::exists(file("missing.db")));
}

TEST_F(HistoryArchivePaths, ASurveyFileOrAJournalThatIsNotARegularFileIsRefused) {
  const std::string before = bws::test::slurp(file("a.db"));
  for (const auto& [path, kind] : special_files()) {
    const CommandResult r = history({"add", file("a.db"), path});
    expect_refusal(r, "FILE " + path);
    EXPECT_NE(r.err.find(bws::path_kind_noun(kind)), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(file("new.db")));
  }
  EXPECT_EQ(bws::test::slurp(file("a.db")), before);
  ASSERT_EQ(::mkfifo(file("a.db-journal").c_str(), 0600), 0);
  for (const auto& args : {std::vector<std::string>{"show", file("a.db"), "--node", "n1"},
                           std::vector<std::string>{"add", file("a.db"), file("s1.h5")}}) {
    const CommandResult r = history(args);
    expect_refusal(r, args[0] + " with a FIFO journal");
    EXPECT_NE(r.err.find("journal"), std::string::npos) << r.err;
  }
  EXPECT_EQ(bws::path_kind(file("a.db-journal"), false), PathKind::Fifo);
  EXPECT_EQ(bws::test::slurp(file("a.db")), before);
}

TEST_F(HistoryArchivePaths, BaselineOutNeverGoesOntoTheArchiveOrANonRegularFile) {
  const std::string before = bws::test::slurp(file("a.db"));
  fs::create_symlink(file("a.db"), file("link-to-archive"));
  std::vector<std::string> targets = {file("a.db"), file("link-to-archive"), file("s1.h5")};
  for (const auto& [path, kind] : special_files()) targets.push_back(path);
  for (const std::string& out : targets) {
    const CommandResult r = history({"baseline", file("a.db"), "--out", out});
    expect_refusal(r, "--out " + out);
  }
  EXPECT_EQ(bws::test::slurp(file("a.db")), before);
  EXPECT_EQ(bws::path_kind(file("link-to-archive"), false), PathKind::SymbolicLink);
  // A reference file of an earlier run is replaced, as documented.
  { std::ofstream(file("ref.ini")) << "# an older reference\n"; }
  const CommandResult r = history({"baseline", file("a.db"), "--out", file("ref.ini")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(bws::test::slurp(file("ref.ini")).find("written by 'bwreport history baseline'"), std::string::npos);
  for (const auto& entry : fs::directory_iterator(dir_))  // no scratch file left
    EXPECT_NE(entry.path().filename().string().front(), '.') << entry.path();
}

TEST_F(HistoryArchivePaths, TheChangesTableOfPlotHistoryNeverReplacesTheArchive) {
  // The archive kept in the report's folder under the table's name.
  fs::create_directory(file("report"));
  const std::string archive = file("report/history_changes.tsv");
  fs::copy_file(file("a.db"), archive);
  const std::string before = bws::test::slurp(archive);
  EXPECT_THROW(bws::history::write_history_changes_tsv(archive, {"n1"}, archive), bws::UsageError);
  EXPECT_EQ(bws::test::slurp(archive), before);
  // Through `bwreport plot -o DIR --history DIR/history_changes.tsv`: exit 2 before Python runs.
  const CommandResult r = bws::test::run_command(bws::report::plot_command(bws::history::write_history_changes_tsv),
                                                 {file("s1.h5"), "-o", file("report"), "--history", archive});
  expect_refusal(r, "plot --history onto its own table");
  EXPECT_EQ(bws::test::slurp(archive), before);
  // The table itself: written, and replaced by the next run.
  const std::string table = file("changes.tsv");
  bws::history::write_history_changes_tsv(file("a.db"), {"n1"}, table);
  bws::history::write_history_changes_tsv(file("a.db"), {"n1", "n2"}, table);
  EXPECT_EQ(bws::test::slurp(table), bws::history::kChangesTsvHeader);
  EXPECT_THROW(bws::history::write_history_changes_tsv(file("a.db"), {"n1"}, file("s1.h5")), bws::UsageError);
}

TEST_F(HistoryArchivePaths, ShowPlotNeverGoesOntoTheArchiveOrAFifo) {
  const std::string before = bws::test::slurp(file("a.db"));
  ASSERT_EQ(::mkfifo(file("plot.png").c_str(), 0600), 0);
  for (const std::string& png : {file("a.db"), file("plot.png")})
    expect_refusal(history({"show", file("a.db"), "--node", "n1", "--plot", png}), "--plot " + png);
  EXPECT_EQ(bws::test::slurp(file("a.db")), before);
}

TEST_F(HistoryArchivePaths, TextFromTheArchiveReachesTheTerminalAndTheTableAsPrintableText) {
  const std::string path = file("evil.db");
  const std::string evil_host = "n\x1b]0;owned\x07\tX\nY", evil_cohort = "c\x1b[2J";
  {
    bws::test::ArchiveBuilder b(path);
    b.begin();
    for (int s = 1; s <= 12; ++s) {
      b.survey(s, 7 * s);
      b.value(s, evil_host, "stream.triad[double]", (s <= 6 ? 10e9 : 5e9) * (1 + 0.001 * (s % 3)), evil_cohort);
      b.value(s, "n2", "stream.triad[double]", 10e9 * (1 + 0.001 * (s % 4)), evil_cohort);
      b.value(s, "n3", "stream.triad[double]", 10e9 * (1 + 0.001 * (s % 5)), evil_cohort);
    }
    b.commit();
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_exec(db, "UPDATE surveys SET started_utc = started_utc || char(27) || '[31m'", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  const CommandResult tsv = history({"changes", path, "--format", "tsv"});
  ASSERT_EQ(tsv.code, 0) << tsv.err;
  const auto rows = bws::test::tsv_rows(tsv.out);
  ASSERT_GE(rows.size(), 2u) << tsv.out;  // the header and the node's drop
  for (const auto& row : rows) EXPECT_EQ(row.size(), 9u) << tsv.out;
  const CommandResult text = history({"changes", path});
  ASSERT_EQ(text.code, 0) << text.err;
  const CommandResult show = history({"show", path, "--node", evil_host});
  ASSERT_EQ(show.code, 0) << show.err;
  for (const std::string& out : {tsv.out, text.out, show.out}) {
    EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;
    EXPECT_EQ(out.find('\x07'), std::string::npos) << out;
  }
  EXPECT_NE(tsv.out.find("n\\x1b]0;owned\\x07\\tX\\nY"), std::string::npos) << tsv.out;
}

}  // namespace
