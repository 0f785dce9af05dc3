// bwreport verdict's one line and exit code, from a survey's facts and its
// /flags: a health check reads it (never measures) and acts on the code.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "FlagsTableFixture.hpp"
#include "history/NodeVerdict.hpp"
#include "model/NodeFlags.hpp"

namespace {

using namespace bws::history;

bws::Table flags_with(const std::string& host, const std::string& status, double value, double pct) {
  bws::Table t = bws::model::make_flags_table();
  std::vector<std::pair<std::string, bws::Value>> cells;
  cells.emplace_back("host", host);
  cells.emplace_back("metric", std::string("stream.triad[double]"));
  cells.emplace_back("status", status);
  cells.emplace_back("unit", std::string("B/s"));
  cells.emplace_back("rule", std::string("fraction"));
  cells.emplace_back("value", value);
  cells.emplace_back("percent_of_median", pct);
  bws::test::add_flags_row(t, cells);
  return t;
}

// 2026-11-27T00:00:00Z is 1795737600 s after 1970 (20419 days x 86400).
constexpr std::int64_t kCreated = 1795737600;
const SurveyFacts kSurvey{"4242", "2026-11-27T00:00:00Z", kCreated, true};

TEST(NodeVerdict, EachStandingHasItsCodeAndSaysWhy) {
  const bws::Table confirmed = flags_with("n3", bws::model::kFlagConfirmed, 5.21e9, 18.2);
  const NodeVerdict flagged = node_verdict("n3", kSurvey, &confirmed, kCreated + 3600, 30);
  EXPECT_EQ(flagged.code, 3);
  EXPECT_EQ(flagged.line,
            "n3: flagged: stream.triad[double] 5.21GB/s, 18% of cohort median, confirmed by the retest; survey 4242 "
            "of 2026-11-27T00:00:00Z");
  const bws::Table transient = flags_with("n3", bws::model::kFlagTransient, 5.21e9, 18.2);
  EXPECT_EQ(node_verdict("n3", kSurvey, &transient, kCreated, -1).code, 0) << "a flag the retest did not confirm";
  EXPECT_EQ(node_verdict("n1", kSurvey, &confirmed, kCreated, -1).line, "n1: healthy in survey 4242 of 2026-11-27T00:00:00Z");
  EXPECT_EQ(node_verdict("n1", kSurvey, nullptr, kCreated, -1).code, 0) << "no node checks: nothing flagged";
  SurveyFacts without = kSurvey;
  without.has_node = false;
  EXPECT_EQ(node_verdict("n9", without, &confirmed, kCreated, -1).code, 4);
}

TEST(NodeVerdict, TheWorstConfirmedFlagIsNamedFirst) {
  bws::Table flags = flags_with("n3", bws::model::kFlagConfirmed, 8.0e9, 80.0);
  std::vector<std::pair<std::string, bws::Value>> worse;
  worse.emplace_back("host", std::string("n3"));
  worse.emplace_back("metric", std::string("stream.copy[double]"));
  worse.emplace_back("status", std::string(bws::model::kFlagConfirmed));
  worse.emplace_back("unit", std::string("B/s"));
  worse.emplace_back("value", 2.0e9);
  worse.emplace_back("percent_of_median", 20.0);
  bws::test::add_flags_row(flags, worse);
  EXPECT_EQ(node_verdict("n3", kSurvey, &flags, kCreated, -1).line,
            "n3: flagged: stream.copy[double] 2GB/s, 20% of cohort median, confirmed by the retest (+1 more); survey "
            "4242 of 2026-11-27T00:00:00Z");
}

TEST(NodeVerdict, TooOldWinsOverEveryOtherStanding) {
  const bws::Table confirmed = flags_with("n3", bws::model::kFlagConfirmed, 5.21e9, 18.2);
  const std::int64_t eight_days_later = kCreated + 8 * 86400;
  EXPECT_EQ(node_verdict("n3", kSurvey, &confirmed, eight_days_later, 7).code, 5);
  EXPECT_EQ(node_verdict("n3", kSurvey, &confirmed, eight_days_later, 7).line,
            "n3: too old: survey 4242 of 2026-11-27T00:00:00Z is older than 7 days (--max-age)");
  EXPECT_EQ(node_verdict("n3", kSurvey, &confirmed, eight_days_later, 8.5).code, 3);
}

}  // namespace
