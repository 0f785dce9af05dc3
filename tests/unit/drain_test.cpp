// bwreport drain: the scontrol lines for confirmed flags (one per host, the
// worst flag named, "+N more"), what is never or only optionally printed,
// the reason's length and characters, refused host names, and the command
// on a survey file (stdout, the stderr note, the usage errors).
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/Errors.hpp"
#include "core/ResultColumns.hpp"
#include "core/Table.hpp"
#include "h5/ResultFile.hpp"
#include "model/NodeFlags.hpp"
#include "report/Drain.hpp"
#include "report/ReportCommand.hpp"
#include "FlagsTableFixture.hpp"
#include "TestSupport.hpp"

namespace {

namespace fs = std::filesystem;
using bws::Table;
using bws::report::drain_lines;

// The /flags table as bwsurvey writes it (model::make_flags_table()), or
// as files made before the retest phase had it (no cohort, rule, retest or
// status columns).
Table flags_table(bool with_status = true) {
  if (with_status) return bws::model::make_flags_table();
  return Table("flags", {bws::text_column("host", bws::kHostWidth), bws::text_column("metric", 64),
                         bws::real_column("value"), bws::real_column("median"), bws::real_column("mad"),
                         bws::real_column("robust_z"), bws::real_column("percent_of_median"),
                         bws::real_column("threshold"), bws::text_column("unit", 16), bws::text_column("reason", 200)});
}

// A flag row, its cells given by column name so that a column added to
// /flags later gets a default instead of breaking these tests.
void add_flag(Table& t, const std::string& host, const std::string& metric, double value, double median,
              const std::string& unit, const std::string& status) {
  const bool retested = status != bws::model::kFlagNotRetested;
  const std::vector<std::pair<std::string, bws::Value>> given = {
      {"host", host},
      {"cohort", "cpu"},
      {"cohort_nodes", 8},
      {"metric", metric},
      {"value", value},
      {"median", median},
      {"mad", 1.0e8},
      {"robust_z", -6.0},
      {"percent_of_median", 100.0 * value / median},
      {"threshold", 0.9 * median},
      {"unit", unit},
      {"rule", "fraction"},
      {"reason", "below 90 % of the median"},
      {"retest_values", retested ? "4.5e9,4.7e9" : ""},
      {"retest_median", retested ? value : std::nan("")},
      {"status", status}};
  bws::test::add_flags_row(t, given);
}

// The Slurm line as an admin would type it, the reason's word single-quoted.
std::string line(const std::string& host, const std::string& reason) {
  return "scontrol update NodeName=" + host + " State=DRAIN 'Reason=" + reason + "'";
}

// The reason of a line: what stands between 'Reason= and the final quote.
std::string reason_of(const std::string& l) {
  const auto at = l.find("'Reason=");
  if (at == std::string::npos || l.back() != '\'') return "(no reason)";
  return l.substr(at + 8, l.size() - at - 9);
}

using Lines = std::vector<std::string>;

// One flag row as the tests give it.
struct Flag {
  const char* host;
  const char* metric;
  double value, median;
  const char* unit;
  const char* status;
};

// Flags in, with the job id: the lines for the confirmed ones out.
TEST(Drain, OneLinePerHostWithAConfirmedFlagNamingTheWorst) {
  const Flag n1_triad{"n1", "stream.triad[double]", 4.6e9, 9.0e9, "B/s", "confirmed"};
  const std::string n1_triad_reason = "bwsurvey: stream.triad[double] 4.6GB/s 51% of cohort median";
  const struct {
    const char* what;
    std::vector<Flag> flags;
    const char* job;
    Lines lines;
  } cases[] = {
      {"one confirmed host",
       {n1_triad,
        {"n2", "stream.triad[double]", 5.0e9, 9.0e9, "B/s", "not confirmed (transient)"},
        {"n3", "stream.copy[double]", 6.0e9, 9.0e9, "B/s", "not retested"}},
       "4242",
       {line("n1", n1_triad_reason + " job 4242")}},
      {"two confirmed flags on one host: the worst and one more",
       {{"n7", "stream.triad[double]", 7.2e9, 9.0e9, "B/s", "confirmed"},  // 80 %
        {"n2", "stream.triad[double]", 5.0e9, 9.0e9, "B/s", "not confirmed (transient)"},
        {"n7", "stream.copy[double]", 4.6e9, 9.0e9, "B/s", "confirmed"},  // 51 %: the worst
        {"n4", "stream.copy[double]", 850e6, 9.0e9, "B/s", "confirmed"}},
       "17",
       {line("n7", "bwsurvey: stream.copy[double] 4.6GB/s 51% of cohort median job 17 +1 more"),
        line("n4", "bwsurvey: stream.copy[double] 850MB/s 9% of cohort median job 17")}},
      {"for times the highest percent is the worst",
       {{"gpu01", "beff.latency[8B]", 2.6e-6, 2.0e-6, "s", "confirmed"},     // 130 %
        {"gpu01", "beff.latency[1KiB]", 3.6e-6, 2.0e-6, "s", "confirmed"}},  // 180 %
       "9",
       {line("gpu01", "bwsurvey: beff.latency[1KiB] 3.6us 180% of cohort median job 9 +1 more")}},
      {"without a job id the reason says nojob", {n1_triad}, "", {line("n1", n1_triad_reason + " nojob")}},
      {"the job id is trimmed", {n1_triad}, " 77\n", {line("n1", n1_triad_reason + " job 77")}},
      {"shell characters of a metric and the job are replaced",
       {{"n1", "a\"b$(rm)`x`\\!;", 4.6e9, 9.0e9, "B/s", "confirmed"}},
       "1;2",
       {line("n1", "bwsurvey: a_b__rm__x____ 4.6GB/s 51% of cohort median job 1_2")}},
  };
  for (const auto& c : cases) {
    Table t = flags_table();
    for (const Flag& f : c.flags) add_flag(t, f.host, f.metric, f.value, f.median, f.unit, f.status);
    Lines refusals;
    EXPECT_EQ(drain_lines(t, c.job, false, refusals), c.lines) << c.what;
    EXPECT_TRUE(refusals.empty()) << c.what;
  }
}

TEST(Drain, TransientFlagsAreNeverPrinted) {
  Table t = flags_table();
  add_flag(t, "n1", "stream.triad[double]", 4.6e9, 9.0e9, "B/s", "not confirmed (transient)");
  add_flag(t, "n1", "stream.copy[double]", 4.6e9, 9.0e9, "B/s", "not confirmed (transient)");
  Lines refusals;
  EXPECT_TRUE(drain_lines(t, "1", false, refusals).empty());
  EXPECT_TRUE(drain_lines(t, "1", true, refusals).empty());
  EXPECT_TRUE(refusals.empty());
}

TEST(Drain, NotRetestedOnlyWithUnconfirmed) {
  Table t = flags_table();
  add_flag(t, "n3", "stream.copy[double]", 6.0e9, 9.0e9, "B/s", "not retested");
  add_flag(t, "n1", "stream.triad[double]", 4.6e9, 9.0e9, "B/s", "confirmed");
  add_flag(t, "n1", "stream.add[double]", 3.0e9, 9.0e9, "B/s", "not retested");
  Lines refusals;
  EXPECT_EQ(drain_lines(t, "5", false, refusals),
            Lines{line("n1", "bwsurvey: stream.triad[double] 4.6GB/s 51% of cohort median job 5")});
  // The confirmed flag stays the one named; the unretested one is "+1 more".
  EXPECT_EQ(drain_lines(t, "5", true, refusals),
            (Lines{line("n3", "bwsurvey: unretested stream.copy[double] 6GB/s 67% of cohort median job 5"),
                   line("n1", "bwsurvey: stream.triad[double] 4.6GB/s 51% of cohort median job 5 +1 more")}));
}

TEST(Drain, ATableWithoutStatusCountsEveryFlagAsNotRetested) {
  Table t = flags_table(false);
  add_flag(t, "n1", "stream.triad[double]", 4.6e9, 9.0e9, "B/s", "");
  Lines refusals;
  EXPECT_TRUE(drain_lines(t, "5", false, refusals).empty());
  EXPECT_EQ(drain_lines(t, "5", true, refusals),
            Lines{line("n1", "bwsurvey: unretested stream.triad[double] 4.6GB/s 51% of cohort median job 5")});
  const auto counts = bws::report::count_drain_flags(t);
  EXPECT_FALSE(counts.has_status);
  EXPECT_EQ(counts.unretested_flags, 1u);
}

// Every character of a reason is one the shell leaves alone inside double quotes.
bool plain_reason(const std::string& reason) {
  for (char c : reason)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || std::string("._-[],+%: /").find(c) != std::string::npos))
      return false;
  return true;
}

TEST(Drain, ALongMetricAndHostKeepTheReasonUnderTheLimit) {
  const std::string host(60, 'h');
  const std::string metric = "stream.triad_nontemporal_with_a_very_long_kernelname[double]";
  ASSERT_EQ(metric.size(), 60u);
  Table t = flags_table();
  add_flag(t, host, metric, 4.6e9, 9.0e9, "B/s", "confirmed");
  add_flag(t, host, "stream.copy[double]", 8.0e9, 9.0e9, "B/s", "confirmed");
  Lines refusals;
  const Lines lines = drain_lines(t, "12345678901", false, refusals);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].rfind("scontrol update NodeName=" + host + " State=DRAIN 'Reason=", 0), 0u);
  const std::string reason = reason_of(lines[0]);
  EXPECT_LE(reason.size(), bws::report::kDrainReasonMax);
  EXPECT_LT(reason.size(), 80u);
  EXPECT_TRUE(plain_reason(reason)) << reason;
  // The metric is cut in the middle; the numbers, the job and "+1 more" stay.
  EXPECT_EQ(reason, "bwsurvey: stream..[double] 4.6GB/s 51% of cohort median job 12345678901 +1 more");

  // With a job id as long as one may be, "+N more" gives way first.
  const Lines longer = drain_lines(t, std::string(40, '9'), false, refusals);
  ASSERT_EQ(longer.size(), 1u);
  const std::string r2 = reason_of(longer[0]);
  EXPECT_LE(r2.size(), bws::report::kDrainReasonMax);
  EXPECT_TRUE(plain_reason(r2)) << r2;
  EXPECT_EQ(r2.find("+1 more"), std::string::npos) << r2;
  EXPECT_EQ(r2.rfind("bwsurvey: strea", 0), 0u) << r2;
}

TEST(Drain, BadHostNamesAreRefused) {
  Table t = flags_table();
  add_flag(t, "n1;reboot", "stream.triad[double]", 4.6e9, 9.0e9, "B/s", "confirmed");
  add_flag(t, "a b", "stream.triad[double]", 4.6e9, 9.0e9, "B/s", "confirmed");
  add_flag(t, "n[1-4]", "stream.triad[double]", 4.6e9, 9.0e9, "B/s", "confirmed");
  add_flag(t, "q\"x", "stream.triad[double]", 4.6e9, 9.0e9, "B/s", "confirmed");
  add_flag(t, "node-7.cluster_a", "stream.triad[double]", 4.6e9, 9.0e9, "B/s", "confirmed");
  add_flag(t, "x y", "stream.triad[double]", 4.6e9, 9.0e9, "B/s", "not confirmed (transient)");  // not a drain
  Lines refusals;
  EXPECT_EQ(drain_lines(t, "3", false, refusals),
            Lines{line("node-7.cluster_a", "bwsurvey: stream.triad[double] 4.6GB/s 51% of cohort median job 3")});
  ASSERT_EQ(refusals.size(), 4u);
  EXPECT_EQ(refusals[0],
            "bwreport drain: refused host 'n1;reboot': not a valid Slurm node name (letters, digits, '.', '_' and "
            "'-' only); no command for it");
  EXPECT_NE(refusals[1].find("'a b'"), std::string::npos);
  EXPECT_NE(refusals[2].find("'n[1-4]'"), std::string::npos);
  EXPECT_NE(refusals[3].find("'q\"x'"), std::string::npos);
}

TEST(Drain, ValuesInShortUnits) {
  const struct {
    double value;
    const char* unit;
    const char* text;
  } cases[] = {
      {4.6e9, "B/s", "4.6GB/s"}, {28.31e9, "B/s", "28.3GB/s"}, {999.9e9, "B/s", "1TB/s"},
      {850e6, "B/s", "850MB/s"}, {2.15e-6, "s", "2.15us"},     {0.5, "s", "500ms"},
      {3e-10, "s", "0.3ns"},     {std::nan(""), "B/s", "nan"}, {1.5, "", "1.5"},
  };
  for (const auto& c : cases) EXPECT_EQ(bws::report::drain_value_text(c.value, c.unit), c.text) << c.value << c.unit;
}

// The command on a survey file written here.
class DrainCommand : public bws::test::TempDirTest {
 protected:
  DrainCommand() : TempDirTest("bws_drain_test") {}
  std::string write(const std::string& name, const Table* flags, const std::string& job) {
    const std::string path = (dir_ / name).string();
    bws::h5::ResultFile f = bws::h5::ResultFile::create(path, false);
    f.set_attribute("/provenance", "host", std::string("login1"));
    if (!job.empty()) f.set_attribute("/provenance", "slurm_job_id", job);
    if (flags) f.append(*flags);
    f.close();
    return path;
  }
  int run(const std::vector<std::string>& args) {
    out_.str("");
    err_.str("");
    return bws::report::run_drain(args, out_, err_);
  }
  std::ostringstream out_, err_;
};

Table mixed_flags() {
  Table t = flags_table();
  add_flag(t, "n1", "stream.triad[double]", 4.6e9, 9.0e9, "B/s", "confirmed");
  add_flag(t, "n2", "stream.triad[double]", 5.0e9, 9.0e9, "B/s", "not confirmed (transient)");
  add_flag(t, "n5", "stream.copy[double]", 5.0e9, 9.0e9, "B/s", "not confirmed (transient)");
  return t;
}

TEST_F(DrainCommand, PrintsTheLinesOnStdoutAndTheCountsOnStderr) {
  const Table t = mixed_flags();
  const std::string path = write("s.h5", &t, "4242");
  EXPECT_EQ(run({path}), 0);
  EXPECT_EQ(out_.str(), line("n1", "bwsurvey: stream.triad[double] 4.6GB/s 51% of cohort median job 4242") + "\n");
  EXPECT_EQ(err_.str(),
            "bwreport drain: 1 node confirmed, 2 flags not confirmed (transient), 0 not retested; nothing was "
            "executed\n");
}

TEST_F(DrainCommand, WithoutASlurmJobTheReasonSaysNojob) {
  const Table t = mixed_flags();
  const std::string path = write("s.h5", &t, "");
  EXPECT_EQ(run({path}), 0);
  EXPECT_EQ(out_.str(), line("n1", "bwsurvey: stream.triad[double] 4.6GB/s 51% of cohort median nojob") + "\n");
}

TEST_F(DrainCommand, UnconfirmedAndRefusedHostsInTheNote) {
  Table t = mixed_flags();
  add_flag(t, "n3", "stream.copy[double]", 6.0e9, 9.0e9, "B/s", "not retested");
  add_flag(t, "bad host", "stream.copy[double]", 6.0e9, 9.0e9, "B/s", "confirmed");
  const std::string path = write("s.h5", &t, "8");
  EXPECT_EQ(run({path}), 0);
  EXPECT_EQ(out_.str(), line("n1", "bwsurvey: stream.triad[double] 4.6GB/s 51% of cohort median job 8") + "\n");
  EXPECT_EQ(err_.str(),
            "bwreport drain: refused host 'bad host': not a valid Slurm node name (letters, digits, '.', '_' and "
            "'-' only); no command for it\n"
            "bwreport drain: 2 nodes confirmed, 2 flags not confirmed (transient), 1 not retested (--unconfirmed "
            "prints them); 1 host refused, nothing was executed\n");
  EXPECT_EQ(run({path, "--unconfirmed"}), 0);
  EXPECT_EQ(out_.str(), line("n1", "bwsurvey: stream.triad[double] 4.6GB/s 51% of cohort median job 8") + "\n" +
                            line("n3", "bwsurvey: unretested stream.copy[double] 6GB/s 67% of cohort median job 8") +
                            "\n");
  EXPECT_NE(err_.str().find("1 not retested (included)"), std::string::npos) << err_.str();
}

TEST_F(DrainCommand, NothingConfirmedLeavesStdoutEmpty) {
  Table t = flags_table();
  add_flag(t, "n2", "stream.triad[double]", 5.0e9, 9.0e9, "B/s", "not confirmed (transient)");
  const std::string path = write("s.h5", &t, "8");
  EXPECT_EQ(run({path}), 0);
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(err_.str(), "bwreport drain: nothing to drain in " + path +
                            ": 0 nodes confirmed, 1 flag not confirmed (transient), 0 not retested; nothing was "
                            "executed\n");
}

TEST_F(DrainCommand, AFileWithoutFlagsSaysSoAndExitsZero) {
  const std::string path = write("s.h5", nullptr, "8");
  EXPECT_EQ(run({path}), 0);
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(err_.str(), "bwreport drain: " + path +
                            " has no /flags (the survey ran no node checks); nothing was executed\n");
}

TEST_F(DrainCommand, UsageErrorsAndHelp) {
  using bws::test::usage_error_of;
  EXPECT_EQ(usage_error_of([&] { run({}); }), "bwreport drain: expected 1 file argument, got 0; see bwreport drain --help");
  EXPECT_EQ(usage_error_of([&] { run({"a.h5", "b.h5"}); }),
            "bwreport drain: expected 1 file argument, got 2; see bwreport drain --help");
  EXPECT_EQ(usage_error_of([&] { run({"a.h5", "--execute"}); }),
            "bwreport drain: unknown option '--execute'; see bwreport drain --help");
  EXPECT_EQ(run({"--help"}), 0);
  EXPECT_EQ(out_.str().rfind("Usage: bwreport drain FILE [--unconfirmed]", 0), 0u) << out_.str();
  EXPECT_NE(out_.str().find("--unconfirmed"), std::string::npos);
  EXPECT_NE(out_.str().find("without /flags"), std::string::npos);
  // The registered command is the same one.
  EXPECT_STREQ(bws::report::drain_command().name, "drain");
}

}  // namespace
