// bwreport history changes on archives with known series: one node's step
// is named with its date and size, a step of every node at once is one
// survey-wide change and no node change, single outliers are nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>

#include "HistoryArchiveTestSupport.hpp"
#include "TestSupport.hpp"
#include "history/HistoryCommands.hpp"

using namespace bws;
using bws::test::ArchiveBuilder;

namespace {

constexpr int kSurveys = 12;
constexpr int kHosts = 10;
const std::string kTriad = "stream.triad[double]";

// Survey ids are not in time order (they are the order files were added).
std::int64_t survey_id(int position) { return (position * 5) % kSurveys + 1; }
std::string host(int h) { return (h < 9 ? "n0" : "n") + std::to_string(h + 1); }
// +-1 % of deterministic noise.
double noisy(double level, int h, int position) { return level * (1 + 0.01 * (((h * 37 + position * 11) % 7) - 3) / 3.0); }

class HistoryChanges : public test::TempDirTest {
 protected:
  // level(h, position) in GB/s for every host and survey; a partial survey
  // in the middle whose values would be a step if it counted.
  std::string archive(const std::function<double(int, int)>& level) {
    const std::string path = file("a.db");
    ArchiveBuilder b(path);
    b.begin();
    for (int p = 0; p < kSurveys; ++p) {
      b.survey(survey_id(p), 7 * p);
      for (int h = 0; h < kHosts; ++h) b.value(survey_id(p), host(h), kTriad, noisy(level(h, p), h, p) * 1e9);
    }
    b.survey(99, 7 * 3 + 1, "partial: rank 3 failed");
    for (int h = 0; h < kHosts; ++h) b.value(99, host(h), kTriad, 10e9);
    b.commit();
    utc_ = b.utc(survey_id(6));
    return path;
  }
  std::string utc_;  // the 7th survey's start
};

std::vector<std::vector<std::string>> tsv(const std::string& path, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {path, "--format", "tsv"};
  args.insert(args.end(), extra.begin(), extra.end());
  const test::CommandResult r = test::run_command(history::history_changes_command(), args);
  EXPECT_EQ(r.code, 0) << r.err;
  return test::tsv_rows(r.out);
}

}  // namespace

TEST_F(HistoryChanges, OneNodesDropIsNamedWithItsDateAndSize) {
  const std::string path = archive([](int h, int p) { return h == 2 && p >= 6 ? 70.0 : 100.0; });
  const auto rows = tsv(path);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"host", "metric", "changed_utc", "survey_id", "change_percent",
                                               "confidence", "before", "after", "unit"}));
  const auto& r = rows[1];
  ASSERT_EQ(r.size(), 9u);
  EXPECT_EQ(r[0], "n03");
  EXPECT_EQ(r[1], kTriad);
  EXPECT_EQ(r[2], utc_);
  EXPECT_EQ(r[3], std::to_string(survey_id(6)));
  EXPECT_NEAR(std::stod(r[4]), -30.0, 2.0);
  EXPECT_GE(std::stod(r[5]), 0.9);
  EXPECT_LE(std::stod(r[5]), 1.0);
  EXPECT_NEAR(std::stod(r[6]), 100e9, 1.5e9);  // the node's own levels, B/s
  EXPECT_NEAR(std::stod(r[7]), 70e9, 1.5e9);
  EXPECT_EQ(r[8], "B/s");

  // --node of another host: nothing; of n03: the same row.
  EXPECT_EQ(tsv(path, {"--node", "n01"}).size(), 1u);
  EXPECT_EQ(tsv(path, {"--node", "n03", "--metric", kTriad}), rows);

  // The text: a count of series, the change in GB/s, no survey-wide change.
  const test::CommandResult text = test::run_command(history::history_changes_command(), {path});
  EXPECT_EQ(text.code, 0);
  EXPECT_NE(text.out.find("10 node series examined"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("node changes: 1"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(utc_ + "  n03  " + kTriad), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("GB/s"), std::string::npos);
  EXPECT_NE(text.out.find("survey-wide changes: 0"), std::string::npos) << text.out;
}

TEST_F(HistoryChanges, AStepOfEveryNodeIsOneSurveyWideChange) {
  const std::string path = archive([](int, int p) { return p >= 6 ? 80.0 : 100.0; });
  const auto rows = tsv(path);
  ASSERT_EQ(rows.size(), 2u);  // the header and the cohort's row
  EXPECT_EQ(rows[1][0], "cohort:c1");
  EXPECT_EQ(rows[1][2], utc_);
  EXPECT_NEAR(std::stod(rows[1][4]), -20.0, 2.0);
  // A node's listing holds no cohort row.
  EXPECT_EQ(tsv(path, {"--node", "n01"}).size(), 1u);
  const test::CommandResult text = test::run_command(history::history_changes_command(), {path});
  EXPECT_NE(text.out.find("node changes: 0"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("survey-wide changes: 1"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(utc_ + "  cohort c1  " + kTriad), std::string::npos) << text.out;
}

TEST_F(HistoryChanges, OutliersAndALoadedSurveyAreNoChange) {
  // n02 at half speed in one survey; every node 40 % slow in another (the
  // machine was busy); n05 50 % fast once.
  const std::string path = archive([](int h, int p) {
    if (p == 4) return 60.0;
    if (h == 1 && p == 8) return 50.0;
    if (h == 4 && p == 2) return 150.0;
    return 100.0;
  });
  EXPECT_EQ(tsv(path).size(), 1u);
}

TEST_F(HistoryChanges, MinChangeHidesSmallerSteps) {
  const std::string path = archive([](int h, int p) { return h == 0 && p >= 6 ? 90.0 : 100.0; });
  EXPECT_EQ(tsv(path).size(), 2u);
  EXPECT_EQ(tsv(path, {"--min-change", "0.2"}).size(), 1u);
}

TEST_F(HistoryChanges, UnknownNodeOrMetricOrBadOptionIsOneLineExit2) {
  const std::string path = archive([](int, int) { return 100.0; });
  std::ofstream(file("not.db")) << "survey.h5 is not an archive\n";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{path, "--node", "n77"}, {path, "--metric", "stream.copy"},
        {path, "--min-change", "0"}, {path, "--format", "csv"}, {file("none.db")}, {file("not.db")}}) {
    const test::CommandResult r = test::run_command(history::history_changes_command(), args);
    EXPECT_EQ(r.code, 2) << args[1];
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
  const test::CommandResult r = test::run_command(history::history_changes_command(), {path, "--node", "n77"});
  EXPECT_NE(r.err.find("--node 'n77'"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(file("none.db")));
}

TEST_F(HistoryChanges, TextIsInDateOrderThenLargestFirst) {
  // n02 -40 % at the 9th survey; n05 -25 % and n03 -15 % at the 5th.
  const std::string path = archive([](int h, int p) {
    if (h == 1 && p >= 8) return 60.0;
    if (h == 4 && p >= 4) return 75.0;
    if (h == 2 && p >= 4) return 85.0;
    return 100.0;
  });
  const test::CommandResult text = test::run_command(history::history_changes_command(), {path});
  ASSERT_EQ(text.code, 0) << text.err;
  const std::size_t n05 = text.out.find("  n05  "), n03 = text.out.find("  n03  "), n02 = text.out.find("  n02  ");
  ASSERT_NE(n05, std::string::npos) << text.out;
  ASSERT_NE(n03, std::string::npos) << text.out;
  ASSERT_NE(n02, std::string::npos) << text.out;
  EXPECT_LT(n05, n03);
  EXPECT_LT(n03, n02);
  EXPECT_NE(text.out.find("node changes: 3"), std::string::npos) << text.out;
  // --node given twice: the two nodes' rows alone.
  const auto rows = tsv(path, {"--node", "n02", "--node", "n03"});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1][0], "n03");
  EXPECT_EQ(rows[2][0], "n02");
}
