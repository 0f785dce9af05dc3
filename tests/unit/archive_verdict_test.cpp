// bwreport verdict on the history archive: the node's latest survey there,
// the retest's status kept since archive version 2, a version 1 archive read
// as it is (its flags unconfirmed) and migrated by the next history add.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "HistoryArchiveTestSupport.hpp"
#include "TestSupport.hpp"
#include "history/ArchiveSchema.hpp"
#include "history/HistoryCommands.hpp"
#include "history/NodeVerdict.hpp"
#include "history/Sqlite.hpp"

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
