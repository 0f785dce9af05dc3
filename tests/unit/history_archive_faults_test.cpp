// The history archive under faults: `history add` into a copy with damaged
// pages (every page in turn) is refused with exit 2 and leaves the copy byte
// for byte; `add` killed before each of its file operations (the
// BWSURVEY_HISTORY_EXIT_AT hook, a test build only) leaves the old or the
// new archive, and show, changes, baseline and plot --history's table read
// it at once (they roll the journal back), never calling it foreign.
#include <fcntl.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/BuildInfo.hpp"
#include "core/Errors.hpp"
#include "history/ArchiveAccess.hpp"
#include "history/HistoryCommands.hpp"
#include "history/SqliteFaultHook.hpp"
#include "HistoryArchiveTestSupport.hpp"
#include "TestSupport.hpp"

namespace {

namespace fs = std::filesystem;
using bws::test::CommandResult;
using bws::test::SurveySpec;

CommandResult history(const std::vector<std::string>& args) {
  return bws::test::run_command(bws::history::history_command(), args);
}


// The survey ids of an archive, read-only (a hot journal left would fail it).
std::set<std::string> survey_ids(const std::string& path) {
  std::set<std::string> ids;
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT started_utc FROM surveys", -1, &stmt, nullptr) != SQLITE_OK)
    ADD_FAILURE() << path << ": " << sqlite3_errmsg(db);
  while (stmt && sqlite3_step(stmt) == SQLITE_ROW) ids.insert(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return ids;
}

// A refusal: exit 2, one line on stderr, nothing on stdout, and never the
// advice to start another archive.
void expect_refusal(const CommandResult& r, const std::string& what) {
  EXPECT_EQ(r.code, 2) << what << ": " << r.err;
  EXPECT_TRUE(r.out.empty()) << what << ": " << r.out;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << what << ": " << r.err;
  EXPECT_EQ(r.err.find("new path"), std::string::npos) << what << ": " << r.err;
}

SurveySpec survey(const std::string& created_utc, double n1_Bps) {
  SurveySpec s;
  s.created_utc = created_utc;
  s.nodes = {{"n1", n1_Bps}, {"n2", 20e9}, {"n3", 30e9}, {"fat1", 40e9, "Test CPU", 8, std::int64_t{512} << 30}};
  return s;
}

class HistoryArchiveFaults : public bws::test::TempDirTest {
 protected:
  HistoryArchiveFaults() : TempDirTest("bws_history_faults") {}
  void SetUp() override {
    TempDirTest::SetUp();
    bws::test::write_survey(file("s1.h5"), survey("2025-03-01T10:00:00Z", 10e9));
    bws::test::write_survey(file("s2.h5"), survey("2025-04-01T10:00:00Z", 11e9));
    bws::test::write_survey(file("s3.h5"), survey("2025-05-01T10:00:00Z", 12e9));
  }
  // An archive of s1 and s2.
  std::string archive() {
    const std::string path = file("a.db");
    EXPECT_EQ(history({"add", path, file("s1.h5"), file("s2.h5")}).code, 0);
    return path;
  }
  // `path` and its journal (when there is one) copied to `to`.
  void copy_with_journal(const std::string& path, const std::string& to) {
    fs::copy_file(path, to, fs::copy_options::overwrite_existing);
    fs::remove(to + "-journal");
    if (fs::exists(path + "-journal")) fs::copy_file(path + "-journal", to + "-journal");
  }
};

// The archive's page size (header bytes 16-17, big-endian; 1 means 65536).
std::size_t page_size(const std::string& bytes) {
  const std::size_t v = (static_cast<unsigned char>(bytes[16]) << 8) | static_cast<unsigned char>(bytes[17]);
  return v == 1 ? 65536 : v;
}

TEST_F(HistoryArchiveFaults, AddRefusesAnArchiveWithADamagedPageAndLeavesItByteForByte) {
  const std::string good = bws::test::slurp(archive());
  const std::size_t page = page_size(good), pages = good.size() / page;
  ASSERT_GE(pages, 5u);
  for (const bool zeros : {false, true}) {
    for (std::size_t p = 0; p < pages; ++p) {
      // The whole page garbage (or zeros), as a bad disk block or a stray write leaves it.
      std::string damaged = good;
      std::mt19937 rng(static_cast<unsigned>(p));
      for (std::size_t i = p * page; i < (p + 1) * page; ++i) damaged[i] = zeros ? '\0' : static_cast<char>(rng());
      const std::string copy = file("d.db");
      { std::ofstream(copy, std::ios::binary | std::ios::trunc) << damaged; }
      const std::string what = (zeros ? "zeroed page " : "garbage page ") + std::to_string(p + 1);
      const CommandResult r = history({"add", copy, file("s3.h5")});
      expect_refusal(r, what);
      EXPECT_TRUE(r.err.find("damaged") != std::string::npos || r.err.find("not an SQLite database") != std::string::npos)
          << what << ": " << r.err;
      EXPECT_TRUE(bws::test::slurp(copy) == damaged) << what << ": the archive was changed";
      EXPECT_FALSE(fs::exists(copy + "-journal")) << what;
      // A reader reads what it can, or refuses in one line; never exit 1, never "new path".
      const CommandResult show = history({"show", copy, "--node", "n1"});
      if (show.code != 0) expect_refusal(show, what + " (show)");
      EXPECT_TRUE(bws::test::slurp(copy) == damaged) << what << ": show changed the archive";
    }
  }
  // The undamaged archive takes the survey.
  EXPECT_EQ(history({"add", file("a.db"), file("s3.h5")}).code, 0);
  EXPECT_EQ(survey_ids(file("a.db")).size(), 3u);
}

TEST_F(HistoryArchiveFaults, ArchivesThatAreNotOursOrEmptySayWhatToDo) {
  // Another program's SQLite database: refused, untouched, not called damaged.
  const std::string other = file("other.db");
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(other.c_str(), &db), SQLITE_OK);
    sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES(1);", nullptr, nullptr, nullptr);
    sqlite3_close(db);
  }
  const std::string before = bws::test::slurp(other);
  for (const auto& args : {std::vector<std::string>{"add", other, file("s1.h5")},
                           std::vector<std::string>{"show", other, "--node", "n1"}}) {
    const CommandResult r = history(args);
    expect_refusal(r, args[0]);
    EXPECT_NE(r.err.find("not a bwsurvey history archive"), std::string::npos) << r.err;
  }
  EXPECT_EQ(bws::test::slurp(other), before);
  // An empty file (a first add interrupted): the readers say how to fill it, add fills it.
  { std::ofstream(file("empty.db")); }
  for (const auto& args : {std::vector<std::string>{"show", file("empty.db"), "--node", "n1"},
                           std::vector<std::string>{"changes", file("empty.db")},
                           std::vector<std::string>{"baseline", file("empty.db"), "--out", file("r.ini")}}) {
    const CommandResult r = history(args);
    expect_refusal(r, args[0]);
    EXPECT_NE(r.err.find("holds no survey yet"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("bwreport history add"), std::string::npos) << r.err;
  }
  EXPECT_EQ(history({"add", file("empty.db"), file("s1.h5")}).code, 0);
  EXPECT_EQ(survey_ids(file("empty.db")).size(), 1u);
}

// ---- killed at every file operation of add (test build only) --------------

// `history add ARCHIVE SURVEY` in a child process that _exit()s before its
// Nth file operation; its exit code (kSqliteFaultExitCode when killed).
int add_killed_at(long n, const std::string& archive, const std::string& survey, const std::string& log) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::setenv(bws::history::kSqliteFaultVariable, std::to_string(n).c_str(), 1);
    std::ostringstream out, err;
    const int code = bws::report::run_report_command(bws::history::history_command(), {"add", archive, survey}, out, err);
    ::_exit(code);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST_F(HistoryArchiveFaults, AddKilledAtAnyInstantLeavesTheOldOrTheNewArchiveAndEveryReaderWorks) {
  if (!bws::build_info().test_hooks) GTEST_SKIP() << "needs a build with -DBWS_TEST_HOOKS=ON";
  const std::string old_archive = archive();
  const std::set<std::string> old_set = survey_ids(old_archive), new_set = {"2025-03-01T10:00:00Z", "2025-04-01T10:00:00Z",
                                                                            "2025-05-01T10:00:00Z"};
  ASSERT_EQ(old_set.size(), 2u);
  const std::string killed = file("k.db");
  int kills = 0, hot_journals = 0;
  bool completed = false;
  for (long n = 1; n < 400 && !completed; ++n) {
    copy_with_journal(old_archive, killed);
    const int code = add_killed_at(n, killed, file("s3.h5"), file("child.log"));
    if (code == 0) {
      completed = true;
    } else {
      ASSERT_EQ(code, bws::history::kSqliteFaultExitCode) << "kill at " << n << ": " << bws::test::slurp(file("child.log"));
      ++kills;
    }
    // A journal is hot (to be rolled back) when its first byte is not 0;
    // an empty one, made before the first page was saved, is ignored.
    const std::string journal = bws::test::slurp(killed + "-journal");
    const bool hot = !journal.empty() && journal[0] != '\0';
    hot_journals += hot ? 1 : 0;
    if (hot) {
      // A reader that may not write cannot roll the journal back: it says so, and how.
      try {
        bws::history::open_archive_with(killed, false);
        ADD_FAILURE() << "kill at " << n << ": a read-only reader read past a hot journal";
      } catch (const bws::UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("interrupted"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("may write"), std::string::npos) << e.what();
      }
    }
    // Each reader on its own copy of the state the kill left.
    const std::vector<std::vector<std::string>> readers = {
        {"show", file("r.db"), "--node", "n1"}, {"changes", file("r.db")},
        {"baseline", file("r.db"), "--out", file("ref.ini")}};
    for (const auto& reader : readers) {
      copy_with_journal(killed, file("r.db"));
      const CommandResult r = history(reader);
      ASSERT_EQ(r.code, 0) << "kill at " << n << ", " << reader[0] << ": " << r.err;
      if (hot) {
        EXPECT_FALSE(fs::exists(file("r.db-journal"))) << "kill at " << n << ", " << reader[0] << ": not rolled back";
      }
      const std::set<std::string> ids = survey_ids(file("r.db"));
      EXPECT_TRUE(ids == old_set || ids == new_set) << "kill at " << n << ": " << ids.size() << " surveys";
      if (reader[0] == "show") {  // one line per survey in n1's series
        EXPECT_EQ(static_cast<std::size_t>(std::count(r.out.begin(), r.out.end(), '\n')), 2 + ids.size()) << r.out;
      }
    }
    // bwreport plot --history's table, from the same state.
    copy_with_journal(killed, file("r.db"));
    EXPECT_NO_THROW(bws::history::write_history_changes_tsv(file("r.db"), {"n1", "n2"}, file("changes.tsv")))
        << "kill at " << n;
    EXPECT_EQ(bws::test::slurp(file("changes.tsv")).rfind(bws::history::kChangesTsvHeader, 0), 0u) << "kill at " << n;
  }
  RecordProperty("kill_points", kills);
  RecordProperty("hot_journals", hot_journals);
  EXPECT_TRUE(completed);
  EXPECT_GE(kills, 10);
  EXPECT_GE(hot_journals, 3);  // the kills inside the commit left a journal to roll back
  EXPECT_EQ(survey_ids(killed), new_set);
}

TEST_F(HistoryArchiveFaults, AFirstAddKilledAtAnyInstantLeavesNoArchiveOrAnEmptyOneThatAddFills) {
  if (!bws::build_info().test_hooks) GTEST_SKIP() << "needs a build with -DBWS_TEST_HOOKS=ON";
  const std::string path = file("new.db");
  bool completed = false;
  for (long n = 1; n < 400 && !completed; ++n) {
    fs::remove(path);
    fs::remove(path + "-journal");
    const int code = add_killed_at(n, path, file("s1.h5"), file("child.log"));
    completed = code == 0;
    if (!completed) {
      ASSERT_EQ(code, bws::history::kSqliteFaultExitCode) << bws::test::slurp(file("child.log"));
    }
    const CommandResult show = history({"show", path, "--node", "n1"});
    if (show.code == 0) {
      EXPECT_EQ(survey_ids(path).size(), 1u) << "kill at " << n;
    } else {
      expect_refusal(show, "kill at " + std::to_string(n));
      EXPECT_NE(show.err.find("bwreport history add"), std::string::npos) << show.err;
      // The next add makes the archive.
      EXPECT_EQ(history({"add", path, file("s1.h5")}).code, 0) << "kill at " << n;
      EXPECT_EQ(survey_ids(path).size(), 1u) << "kill at " << n;
    }
  }
  EXPECT_TRUE(completed);
}

}  // namespace
