// The history archive: SHA-256 against the FIPS 180-4 / NIST vectors;
// `bwreport history add` on survey files written here (known values),
// read back with SQL; re-adding, partial and corrupt inputs, foreign
// archives; `history show` for a node and the movers of a synthetic
// archive (rows inserted directly with the schema); the dispatcher.
#include <sqlite3.h>
#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/Sha256.hpp"
#include "core/Table.hpp"
#include "h5/ResultFile.hpp"
#include "history/ArchiveSchema.hpp"
#include "history/HistoryCommands.hpp"
#include "history/Sqlite.hpp"
#include "history/NodeVerdict.hpp"
#include "model/Cohorts.hpp"
#include "report/ReportCommand.hpp"
#include "HistoryArchiveTestSupport.hpp"
#include "TestSupport.hpp"

namespace {

namespace fs = std::filesystem;

// ---- SHA-256 --------------------------------------------------------------

TEST(Sha256, NistVectors) {
  EXPECT_EQ(bws::sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(bws::sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(bws::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(bws::sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, StreamingInPiecesAndFromAFile) {
  // One million 'a' fed in uneven pieces, and from a file: the same digest.
  bws::Sha256 h;
  std::size_t left = 1000000, piece = 1;
  const std::string as(1000, 'a');
  while (left > 0) {
    const std::size_t n = std::min({left, piece, as.size()});
    h.update(as.data(), n);
    left -= n;
    piece = piece * 3 + 1;
  }
  EXPECT_EQ(h.hex_digest(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  const std::string path = (fs::temp_directory_path() / "bws_sha256_test.bin").string();
  { std::ofstream(path, std::ios::binary) << std::string(1000000, 'a'); }
  EXPECT_EQ(bws::sha256_file_hex(path), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  fs::remove(path);
}

// ---- survey files ---------------------------------------------------------

using bws::test::NodeSpec;
using bws::test::SurveySpec;
using bws::test::write_survey;

struct CommandRun {
  int code;
  std::string out, err;
};

CommandRun bwreport_history(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int code = bws::report::run_report_command(bws::history::history_command(), args, out, err);
  return {code, out.str(), err.str()};
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Rows of an SQL query as text, '|' between columns (as the sqlite3 CLI prints).
std::vector<std::string> query(const std::string& db_path, const std::string& sql) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  std::vector<std::string> rows;
  while (stmt && sqlite3_step(stmt) == SQLITE_ROW) {
    std::string row;
    for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
      const unsigned char* text = sqlite3_column_text(stmt, c);
      if (c) row += '|';
      row += text ? reinterpret_cast<const char*>(text) : "NULL";
    }
    rows.push_back(row);
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return rows;
}

std::string one(const std::string& db, const std::string& sql) {
  const auto rows = query(db, sql);
  return rows.size() == 1 ? rows[0] : "(" + std::to_string(rows.size()) + " rows)";
}

void expect_one_line(const std::string& text) {
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.find('\n'), text.size() - 1) << text;
}

class HistoryArchive : public bws::test::TempDirTest {
 protected:
  HistoryArchive() : TempDirTest("bws_history_test") {}
  // Three nodes of one class (10, 20, 30 GB/s) and a fat one (40 GB/s);
  // n2 is flagged.
  SurveySpec first_survey() const {
    SurveySpec s;
    s.nodes = {{"n1", 10e9}, {"n2", 20e9}, {"n3", 30e9}, {"fat1", 40e9, "Test CPU", 8, std::int64_t{512} << 30}};
    s.flags = {{"n2", "stream.triad[double]"}};
    return s;
  }
};

TEST_F(HistoryArchive, AddWritesTheSurveyAndItsNodeValues) {
  const std::string h5 = file("s1.h5"), db = file("a.db");
  write_survey(h5, first_survey());
  const CommandRun r = bwreport_history({"add", db, h5});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("added as survey 1"), std::string::npos) << r.out;

  EXPECT_EQ(one(db, "SELECT value FROM archive_info WHERE key = 'schema_version'"), "2");
  EXPECT_EQ(one(db, "SELECT sha256, started_utc, started_unix_s, job_id, nodes, n_nodes, tool_version, commit_id, "
                    "config_sha256, status FROM surveys"),
            bws::sha256_hex(file_bytes(h5)) + "|2025-03-01T10:00:00Z|1740823200|4711|n1,n2,n3,fat1|4|9.8.7|abc123|" +
                bws::sha256_hex("[flags]\nk = 3.5\n") + "|complete");
  EXPECT_EQ(one(db, "SELECT path FROM surveys"), fs::absolute(h5).string());
  // Only Triad on the CPU is a node metric here (Copy is not).
  EXPECT_EQ(query(db, "SELECT name, unit, higher_is_better FROM metrics"),
            std::vector<std::string>{"stream.triad[double]|B/s|1"});
  const std::string thin = bws::model::hardware_class("Test CPU", 8, std::uint64_t{16} << 30);
  const std::string fat = bws::model::hardware_class("Test CPU", 8, std::uint64_t{512} << 30);
  ASSERT_NE(thin, fat);
  EXPECT_EQ(query(db, "SELECT host, metric, value, cohort, valid, flagged FROM node_series ORDER BY host"),
            (std::vector<std::string>{"fat1|stream.triad[double]|40000000000.0|" + fat + "|1|0",
                                      "n1|stream.triad[double]|10000000000.0|" + thin + "|1|0",
                                      "n2|stream.triad[double]|20000000000.0|" + thin + "|1|1",
                                      "n3|stream.triad[double]|30000000000.0|" + thin + "|1|0"}));
  // Each cohort's median: 20 GB/s of the three thin nodes, 40 of the fat one.
  EXPECT_EQ(query(db, "SELECT c.name, s.median, s.n_valid FROM cohort_stats s JOIN cohorts c ON c.id = s.cohort_id "
                      "ORDER BY s.median"),
            (std::vector<std::string>{thin + "|20000000000.0|3", fat + "|40000000000.0|1"}));
}

TEST_F(HistoryArchive, ANodeWithoutAValidValueIsArchivedAsNotValid) {
  SurveySpec s = first_survey();
  s.nodes[2].triad_Bps = std::nan("");
  write_survey(file("s.h5"), s);
  ASSERT_EQ(bwreport_history({"add", file("a.db"), file("s.h5")}).code, 0);
  EXPECT_EQ(one(file("a.db"), "SELECT value, valid FROM node_series WHERE host = 'n3'"), "NULL|0");
  // The thin cohort's median is of the two valid values: (10 + 20) / 2.
  EXPECT_EQ(one(file("a.db"), "SELECT median, n_valid FROM cohort_stats ORDER BY median LIMIT 1"), "15000000000.0|2");
}

TEST_F(HistoryArchive, ReAddingTheSameContentIsANoOp) {
  write_survey(file("s1.h5"), first_survey());
  ASSERT_EQ(bwreport_history({"add", file("a.db"), file("s1.h5")}).code, 0);
  fs::copy_file(file("s1.h5"), file("copy.h5"));  // another path, the same bytes
  const std::string before = file_bytes(file("a.db"));
  const CommandRun again = bwreport_history({"add", file("a.db"), file("s1.h5"), file("copy.h5")});
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.out.find("s1.h5: already in the archive as survey 1 (same sha256); nothing added"), std::string::npos)
      << again.out;
  EXPECT_NE(again.out.find("copy.h5: already in the archive as survey 1"), std::string::npos) << again.out;
  EXPECT_EQ(one(file("a.db"), "SELECT count(*) FROM surveys"), "1");
  EXPECT_EQ(one(file("a.db"), "SELECT count(*) FROM node_values"), "4");
  EXPECT_EQ(file_bytes(file("a.db")), before);  // not one byte written
}

TEST_F(HistoryArchive, SecondSurveyAddsASecondPointToEachSeries) {
  write_survey(file("s1.h5"), first_survey());
  SurveySpec s2 = first_survey();
  s2.created_utc = "2025-04-01T10:00:00Z";
  s2.job_id = "";
  s2.nodes[0].triad_Bps = 11e9;
  s2.flags.clear();
  write_survey(file("s2.h5"), s2);
  // Both in one call.
  ASSERT_EQ(bwreport_history({"add", file("a.db"), file("s2.h5"), file("s1.h5")}).code, 0);
  EXPECT_EQ(query(file("a.db"), "SELECT started_utc, job_id, value, flagged FROM node_series WHERE host = 'n1' "
                                "ORDER BY started_unix_s"),
            (std::vector<std::string>{"2025-03-01T10:00:00Z|4711|10000000000.0|0", "2025-04-01T10:00:00Z||11000000000.0|0"}));
}

TEST_F(HistoryArchive, AnIncompleteSurveyIsRefusedUnlessPartial) {
  SurveySpec s = first_survey();
  s.status = "aborted";
  s.abort_reason = "stream: SIGTERM";
  write_survey(file("cut.h5"), s);
  const CommandRun refused = bwreport_history({"add", file("a.db"), file("cut.h5")});
  EXPECT_EQ(refused.code, 2);
  expect_one_line(refused.err);
  EXPECT_NE(refused.err.find("cut.h5"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("--partial"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(file("a.db")));  // not even created

  const CommandRun added = bwreport_history({"add", file("a.db"), file("cut.h5"), "--partial"});
  ASSERT_EQ(added.code, 0) << added.err;
  EXPECT_EQ(one(file("a.db"), "SELECT status FROM surveys"), "partial: status aborted: stream: SIGTERM");
  EXPECT_EQ(one(file("a.db"), "SELECT count(*) FROM node_values"), "4");
}

TEST_F(HistoryArchive, BadInputLeavesTheArchiveAsItWas) {
  write_survey(file("s1.h5"), first_survey());
  ASSERT_EQ(bwreport_history({"add", file("a.db"), file("s1.h5")}).code, 0);
  const std::string before = file_bytes(file("a.db"));
  SurveySpec s2 = first_survey();
  s2.created_utc = "2025-04-01T10:00:00Z";
  write_survey(file("s2.h5"), s2);
  { std::ofstream(file("junk.h5")) << "not an HDF5 file\n"; }
  auto merged = bws::h5::ResultFile::create(file("merged.h5"), true);
  merged.set_attribute("/", "file_kind", std::string("scaling-study"));
  merged.close();
  for (const std::string bad : {"junk.h5", "merged.h5", "missing.h5"}) {
    // A good survey first, the bad file second: nothing of either is added.
    const CommandRun r = bwreport_history({"add", file("a.db"), file("s2.h5"), file(bad)});
    EXPECT_EQ(r.code, 2) << bad << ": " << r.err;
    expect_one_line(r.err);
    EXPECT_NE(r.err.find(bad), std::string::npos) << r.err;
    EXPECT_EQ(file_bytes(file("a.db")), before) << bad;
  }
}

TEST_F(HistoryArchive, AForeignArchiveIsRefusedAndUntouched) {
  write_survey(file("s1.h5"), first_survey());
  { std::ofstream(file("notes.txt")) << "just some text, not SQLite\n"; }
  CommandRun r = bwreport_history({"add", file("notes.txt"), file("s1.h5")});
  EXPECT_EQ(r.code, 2) << r.err;
  expect_one_line(r.err);
  EXPECT_EQ(file_bytes(file("notes.txt")), "just some text, not SQLite\n");

  ASSERT_EQ(bwreport_history({"add", file("a.db"), file("s1.h5")}).code, 0);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file("a.db").c_str(), &db), SQLITE_OK);
  sqlite3_exec(db, "UPDATE archive_info SET value = '99' WHERE key = 'schema_version'", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  r = bwreport_history({"show", file("a.db"), "--node", "n1"});
  EXPECT_EQ(r.code, 2);
  expect_one_line(r.err);
  EXPECT_NE(r.err.find("schema version '99'"), std::string::npos) << r.err;
}

TEST_F(HistoryArchive, ShowPrintsTheNodesSeriesInGigabytesPerSecondAndPercentOfItsCohort) {
  write_survey(file("s1.h5"), first_survey());
  SurveySpec s2 = first_survey();
  s2.created_utc = "2025-04-01T10:00:00Z";
  s2.job_id = "4800";
  s2.nodes[1].triad_Bps = 15e9;  // thin cohort 10, 15, 30: median 15
  s2.flags.clear();
  write_survey(file("s2.h5"), s2);
  ASSERT_EQ(bwreport_history({"add", file("a.db"), file("s1.h5"), file("s2.h5")}).code, 0);
  const CommandRun r = bwreport_history({"show", file("a.db"), "--node", "n2", "--metric", "stream.triad"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::istringstream lines(r.out);
  std::vector<std::vector<std::string>> words;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream w(line);
    words.emplace_back(std::istream_iterator<std::string>(w), std::istream_iterator<std::string>());
  }
  ASSERT_EQ(words.size(), 4u) << r.out;
  EXPECT_EQ(words[0][0], "n2");
  EXPECT_EQ(words[0][1], "stream.triad[double]");
  EXPECT_EQ(words[2], (std::vector<std::string>{"2025-03-01T10:00:00Z", "4711", "20.000", "100.0", "yes"}));
  EXPECT_EQ(words[3], (std::vector<std::string>{"2025-04-01T10:00:00Z", "4800", "15.000", "100.0", "no"}));
  const CommandRun n1 = bwreport_history({"show", file("a.db"), "--node", "n1"});
  EXPECT_NE(n1.out.find("2025-03-01T10:00:00Z  4711                10.000        50.0  no"), std::string::npos) << n1.out;
  EXPECT_NE(n1.out.find("10.000        66.7  no"), std::string::npos) << n1.out;  // 10 of 15

  const CommandRun unknown = bwreport_history({"show", file("a.db"), "--node", "n9"});
  EXPECT_EQ(unknown.code, 2);
  expect_one_line(unknown.err);
  EXPECT_NE(unknown.err.find("4 hosts: fat1, n1, n2, n3"), std::string::npos) << unknown.err;
  const CommandRun no_metric = bwreport_history({"show", file("a.db"), "--node", "n1", "--metric", "load.bandwidth"});
  EXPECT_EQ(no_metric.code, 2);
  EXPECT_NE(no_metric.err.find("stream.triad[double]"), std::string::npos) << no_metric.err;
  EXPECT_EQ(bwreport_history({"show", file("a.db"), "--metric", "stream.triad", "--top", "0"}).code, 2);
  EXPECT_EQ(bwreport_history({"show", file("missing.db"), "--node", "n1"}).code, 2);
  EXPECT_FALSE(fs::exists(file("missing.db")));
}

// A synthetic archive: rows inserted with the schema's SQL alone.
TEST_F(HistoryArchive, MoversAreSortedByTheMoveAgainstTheNodesOwnPast) {
  const std::string path = file("synthetic.db");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  std::string sql = bws::history::kArchiveSchemaSql;
  sql += "INSERT INTO archive_info VALUES('schema_version', '1');"
         "INSERT INTO metrics VALUES(1, 'stream.triad[double]', 'B/s', 1);"
         "INSERT INTO cohorts VALUES(1, 'c');"
         "INSERT INTO hosts VALUES(1, 'steady'), (2, 'down12'), (3, 'up5'), (4, 'new'), (5, 'down30');";
  // Surveys inserted out of time order: the order is started_unix_s, not id.
  const int day = 86400;
  for (int s = 1; s <= 4; ++s) {
    const int when = 1700000000 + (s == 1 ? 3 : s - 2) * day;  // survey 1 is the latest
    sql += "INSERT INTO surveys VALUES(" + std::to_string(s) + ", '/x', 'h" + std::to_string(s) + "', 't" +
           std::to_string(s) + "', " + std::to_string(when) + ", '', '', 0, '', '', '', 'complete', '');";
  }
  auto value = [&](int survey, int host, const std::string& v) {
    sql += "INSERT INTO node_values VALUES(" + std::to_string(survey) + ", " + std::to_string(host) + ", 1, " + v +
           ", 1, 1, 0);";
  };
  // Past surveys 2, 3, 4; latest 1.
  value(2, 1, "100"), value(3, 1, "101"), value(4, 1, "99"), value(1, 1, "100");     // 0 %
  value(2, 2, "100"), value(3, 2, "200"), value(4, 2, "50"), value(1, 2, "88");      // median 100 -> -12 %
  value(2, 3, "40"), value(3, 3, "40"), value(1, 3, "42");                            // +5 %, 2 past
  value(1, 4, "500");                                                                // no past: not listed
  value(2, 5, "10"), value(3, 5, "10"), value(4, 5, "10"), value(1, 5, "7");         // -30 %
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  sqlite3_close(db);

  const CommandRun r = bwreport_history({"show", path, "--metric", "stream.triad[double]", "--top", "3"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::istringstream lines(r.out);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  std::getline(lines, line);
  std::getline(lines, line);  // the title and the header
  while (std::getline(lines, line)) {
    std::istringstream w(line);
    rows.emplace_back(std::istream_iterator<std::string>(w), std::istream_iterator<std::string>());
  }
  ASSERT_EQ(rows.size(), 3u) << r.out;
  EXPECT_EQ(rows[0], (std::vector<std::string>{"down30", "t1", "0.000", "0.000", "-30.0", "3"}));
  EXPECT_EQ(rows[1][0], "down12");
  EXPECT_EQ(rows[1][4], "-12.0");
  EXPECT_EQ(rows[2][0], "up5");
  EXPECT_EQ(rows[2][4], "+5.0");
  EXPECT_EQ(rows[2][5], "2");
}

// --plot runs analysis/history_plot.py with the fixed arguments (a stand-in
// script here, found through BWSURVEY_ANALYSIS_DIR, records its argv).
TEST_F(HistoryArchive, PlotRunsTheHistoryPlotScriptWithTheArchiveNodeAndMetric) {
  write_survey(file("s1.h5"), first_survey());
  ASSERT_EQ(bwreport_history({"add", file("a.db"), file("s1.h5")}).code, 0);
  fs::create_directory(file("analysis"));
  {
    std::ofstream script(file("analysis/history_plot.py"));
    script << "import sys\nout = sys.argv[sys.argv.index('--out') + 1]\n"
              "open(out, 'w').write('\\n'.join(sys.argv[1:]))\n";
  }
  ::setenv("BWSURVEY_ANALYSIS_DIR", file("analysis").c_str(), 1);
  ::setenv("BWSURVEY_PYTHON", "/usr/bin/python3", 1);
  const CommandRun r = bwreport_history({"show", file("a.db"), "--node", "n1", "--metric", "stream.triad", "--plot",
                                         file("n1.png")});
  const CommandRun unknown = bwreport_history({"show", file("a.db"), "--node", "n9", "--plot", file("n9.png")});
  ::unsetenv("BWSURVEY_ANALYSIS_DIR");
  ::unsetenv("BWSURVEY_PYTHON");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(file_bytes(file("n1.png")),
            file("a.db") + "\n--node\nn1\n--metric\nstream.triad\n--out\n" + file("n1.png"));
  EXPECT_EQ(unknown.code, 2);  // checked before Python starts
  EXPECT_FALSE(fs::exists(file("n9.png")));
  EXPECT_EQ(bwreport_history({"show", file("a.db"), "--metric", "stream.triad", "--plot", file("x.png")}).code, 2);
}

TEST(HistoryCommand, UnknownSubCommandIsOneLineAndExitTwo) {
  const CommandRun r = bwreport_history({"frobnicate"});
  EXPECT_EQ(r.code, 2);
  expect_one_line(r.err);
  EXPECT_NE(r.err.find("add, show"), std::string::npos) << r.err;
  const CommandRun help = bwreport_history({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("history add ARCHIVE FILE..."), std::string::npos);
}

}  // namespace

// bwreport verdict on the history archive: the node's latest survey there,
// the retest's status kept since archive version 2, a version 1 archive read
// as it is (its flags unconfirmed) and migrated by the next history add.
namespace {

using namespace bws;
using test::ArchiveBuilder;
using test::run_command;

class ArchiveVerdict : public test::TempDirTest {
 protected:
  ArchiveVerdict() : TempDirTest("bws_archive_verdict") {}
  test::CommandResult verdict(const std::string& archive, const std::string& host) {
    return run_command(history::verdict_command(), {archive, "--node", host});
  }
};

TEST_F(ArchiveVerdict, TheLatestSurveyOfTheNodeDecides) {
  const std::string path = file("a.sqlite");
  {
    ArchiveBuilder b(path);
    b.survey(1, 10);  // 2026-01-11
    b.survey(2, 40);  // 2026-02-13, later
    for (std::int64_t s : {1, 2}) {
      b.value(s, "n3", "stream.triad[double]", s == 1 ? 2e9 : 9e9, "c1", "B/s", true, true, s == 1);
      b.value(s, "n4", "stream.triad[double]", s == 2 ? 3e9 : 9e9, "c1", "B/s", true, true, s == 2);
      b.cohort_median(s, "stream.triad[double]", "c1", 10e9);
    }
    b.flag_status(1, "n3", "stream.triad[double]", "confirmed");
    b.flag_status(2, "n4", "stream.triad[double]", "confirmed");
  }
  const auto n3 = verdict(path, "n3");
  EXPECT_EQ(n3.code, 0) << n3.out << n3.err;
  EXPECT_EQ(n3.out, "n3: healthy in survey #2 of 2026-02-13T06:00:00Z\n");
  const auto n4 = verdict(path, "n4");
  EXPECT_EQ(n4.code, 3) << n4.out << n4.err;
  EXPECT_EQ(n4.out,
            "n4: flagged: stream.triad[double] 3GB/s, 30% of cohort median, confirmed by the retest; survey #2 of "
            "2026-02-13T06:00:00Z\n");
  const auto n9 = verdict(path, "n9");
  EXPECT_EQ(n9.code, 4);
  EXPECT_EQ(n9.out, "n9: not surveyed in archive '" + path + "'\n");
}

TEST_F(ArchiveVerdict, AVersionOneArchiveIsReadAndItsFlagsAreUnconfirmed) {
  const std::string path = file("v1.sqlite");
  {
    ArchiveBuilder b(path, 1);
    b.survey(1, 10);
    b.value(1, "n3", "stream.triad[double]", 2e9, "c1", "B/s", true, true, true);
  }
  const auto n3 = verdict(path, "n3");
  EXPECT_EQ(n3.code, 0) << n3.err;
  EXPECT_EQ(n3.out, "n3: healthy in survey #1 of 2026-01-11T06:00:00Z (flagged without a retest, not acted on: "
                    "stream.triad[double])\n");
}

TEST_F(ArchiveVerdict, HistoryAddMigratesAVersionOneArchiveAndKeepsItsRows) {
  const std::string path = file("v1.sqlite");
  {
    ArchiveBuilder b(path, 1);
    b.survey(1, 10);
    b.value(1, "n3", "stream.triad[double]", 2e9, "c1", "B/s", true, true, true);
  }
  test::SurveySpec spec;
  spec.created_utc = "2026-03-01T10:00:00Z";
  spec.nodes = {{"n3", 9e9}, {"n4", 3e9}, {"n5", 9e9}};
  spec.flags = {{"n4", "stream.triad[double]"}};
  test::write_survey(file("s.h5"), spec);
  const auto added = run_command(history::history_command(), {"add", path, file("s.h5")});
  ASSERT_EQ(added.code, 0) << added.err;
  history::SqliteDb db(path, history::SqliteDb::Mode::kReadOnly);
  auto version = db.prepare("SELECT value FROM archive_info WHERE key = 'schema_version'");
  ASSERT_TRUE(version.step());
  EXPECT_EQ(version.column_text(0), std::to_string(history::kArchiveSchemaVersion));
  auto old_rows = db.prepare("SELECT count(*) FROM node_values WHERE survey_id = 1");
  old_rows.step();
  EXPECT_EQ(old_rows.column_int64(0), 1) << "the version 1 rows stay";
  // A /flags without a status column: the flag was not retested.
  auto status = db.prepare("SELECT h.name, f.status FROM flag_status f JOIN hosts h ON h.id = f.host_id");
  ASSERT_TRUE(status.step());
  EXPECT_EQ(status.column_text(0), "n4");
  EXPECT_EQ(status.column_text(1), "not retested");
  EXPECT_FALSE(status.step());
}

}  // namespace
