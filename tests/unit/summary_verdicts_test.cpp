// The verdict lines of the terminal summary (issue 17): units, the flags
// worst first and bounded, one line per cohort with its median Triad and
// spread, the worst nodes of a metric. Expected texts worked out by hand
// from the inputs.
#include <gtest/gtest.h>

#include "report/SummaryVerdicts.hpp"

using namespace bws;
using namespace bws::report;

namespace {

// "a3": a host name, appended rather than "a" + std::to_string(i), and the
// cohorts filled with emplace: GCC 12 at -O3 warns there (-Wrestrict, a
// false positive, GCC bug 105329).
std::string host_name(char prefix, int i) {
  std::string name(1, prefix);
  return name += std::to_string(i);
}

Table flags_of(const std::vector<std::pair<std::string, double>>& host_percent) {
  Table t("flags", {text_column("host", 128), text_column("metric", 64), real_column("value"), real_column("median"),
                    real_column("percent_of_median"), text_column("unit", 16), text_column("reason", 200),
                    real_column("retest_median"), text_column("status", 32)});
  for (const auto& [host, percent] : host_percent)
    t.add_row({{"host", host},
               {"metric", std::string("stream.triad")},
               {"value", 80e9 * percent / 100},
               {"median", 80e9},
               {"percent_of_median", percent},
               {"unit", std::string("B/s")},
               {"reason", std::string("below 75 %")},
               {"retest_median", 80e9 * percent / 100},
               {"status", std::string("confirmed")}});
  return t;
}

Table triad_of(const std::vector<std::pair<std::string, double>>& host_Bps) {
  Table t("stream/nodes", {text_column("host", 128), text_column("backend", 16), int_column("ranks"),
                           int_column("threads"), int_column("devices"), text_column("device", 128),
                           text_column("kernel", 32), text_column("type", 8), text_column("stores", 16),
                           int_column("elements"), int_column("bytes", "B"), real_column("t_min", "s"),
                           real_column("t_avg", "s"), real_column("t_max", "s"), real_column("bandwidth", "B/s"),
                           int_column("valid")});
  for (const auto& [host, Bps] : host_Bps)
    t.add_row({{"host", host}, {"backend", std::string("cpu")}, {"ranks", std::int64_t{2}}, {"threads", std::int64_t{2}},
               {"devices", std::int64_t{0}}, {"device", std::string()}, {"kernel", std::string("Triad")},
               {"type", std::string("double")}, {"stores", std::string("normal")}, {"elements", std::int64_t{1000}},
               {"bytes", std::int64_t{24000}}, {"t_min", 24000 / Bps}, {"t_avg", 24000 / Bps}, {"t_max", 24000 / Bps},
               {"bandwidth", Bps}, {"valid", std::int64_t{1}}});
  return t;
}

}  // namespace

TEST(SummaryVerdicts, BandwidthsInGBsTimesInMicroOrMilliseconds) {
  EXPECT_EQ(summary_value(6.849e9, "B/s"), "6.85 GB/s");
  EXPECT_EQ(summary_value(2.5e-6, "s"), "2.5 us");
  EXPECT_EQ(summary_value(0.0123, "s"), "12.3 ms");
  EXPECT_EQ(summary_value(1.5e12, "FLOP/s"), "1500 GFLOP/s");
}

TEST(SummaryVerdicts, FlagsWorstFirstTenLinesThenWhereTheRestAre) {
  // 13 flags at 74, 73, ..., 62 % of the median: n12 (62 %) is the worst.
  std::vector<std::pair<std::string, double>> hp;
  for (int i = 0; i < 13; ++i) hp.push_back({host_name('n', i), 74.0 - i});
  const std::vector<std::string> lines = flag_verdict_lines(flags_of(hp), 100, "/r/s.h5");
  ASSERT_EQ(lines.size(), 1u + 10u + 1u);
  EXPECT_EQ(lines[0].rfind("Flagged nodes (13 of 100): n12 n11 n10 n9 ", 0), 0u) << lines[0];
  // 62 % of 80 GB/s = 49.6 GB/s.
  EXPECT_EQ(lines[1], "  n12  stream.triad: 49.6 GB/s = 62 % of the cohort median 80 GB/s; confirmed by the retest (49.6 GB/s)");
  EXPECT_EQ(lines[10].rfind("  n3  stream.triad: 56.8 GB/s = 71 %", 0), 0u) << lines[10];
  EXPECT_EQ(lines[11], "  ... and 3 more: bwreport flags /r/s.h5");
  for (const std::string& l : lines) EXPECT_LE(l.size(), kSummaryColumns) << l;
}

TEST(SummaryVerdicts, NoStandingFlagIsOneLine) {
  const std::vector<std::string> lines = flag_verdict_lines(flags_of({}), 4, "f.h5");
  EXPECT_EQ(lines, (std::vector<std::string>{"Flagged nodes: none of 4"}));
}

TEST(SummaryVerdicts, OneLinePerCohortWithItsMedianTriadAndSpread) {
  // Cohort A: 21 nodes at 100..120 GB/s: median 110, 5th percentile 101
  // (-8 %), 95th 119 (+8 %). Cohort B: 2 nodes, 50 and 60: median 55.
  model::NodeCohorts cohorts;
  std::vector<std::pair<std::string, double>> triad;
  for (int i = 0; i < 21; ++i) {
    cohorts.emplace(host_name('a', i), "A");
    triad.push_back({host_name('a', i), (100 + i) * 1e9});
  }
  cohorts.emplace("b0", "B");
  cohorts.emplace("b1", "B");
  triad.push_back({"b0", 50e9});
  triad.push_back({"b1", 60e9});
  const std::vector<std::string> lines = cohort_stat_lines(cohorts, {triad_of(triad)});
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "Cohorts: 2 hardware classes, each node compared only within its own");
  EXPECT_EQ(lines[1], "  A: 21 nodes a[0-20], Triad median 110 GB/s, 5-95 %: -8/+8 %");
  EXPECT_EQ(lines[2], "  B: 2 nodes b[0-1] (too few to compare: only absolute rules apply), Triad median 55 GB/s");
}

TEST(SummaryVerdicts, WorstNodesAgainstTheirOwnCohortsMedian) {
  // Cohort A at 100 GB/s but a3 at 70 (70 %); cohort B at 50 with b1 at 45
  // (90 %): a3 first though b1's value is lower.
  model::NodeCohorts cohorts;
  std::vector<std::pair<std::string, double>> triad;
  for (int i = 0; i < 5; ++i) {
    cohorts.emplace(host_name('a', i), "A");
    triad.push_back({host_name('a', i), i == 3 ? 70e9 : 100e9});
    cohorts.emplace(host_name('b', i), "B");
    triad.push_back({host_name('b', i), i == 1 ? 45e9 : 50e9});
  }
  const std::vector<std::string> lines = worst_node_lines(cohorts, {triad_of(triad)});
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1].rfind("  stream.triad[double]: a3 70 GB/s 70 %, b1 45 GB/s 90 %, ", 0), 0u) << lines[1];
}
