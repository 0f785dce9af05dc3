// bwreport drain --format and bwreport undrain: the scheduler lines run
// through sh against fake scontrol, flux and pbsnodes that record their
// arguments (so quoting is checked by a shell, not by reading strings), the
// listings of current drain reasons parsed, and undrain's choice: only
// bwsurvey's drains of nodes now healthy are resumed, never an operator's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/Errors.hpp"
#include "core/ResultColumns.hpp"
#include "core/Table.hpp"
#include "h5/ResultFile.hpp"
#include "model/NodeFlags.hpp"
#include "report/Drain.hpp"
#include "report/NodeReasons.hpp"
#include "report/SchedulerLines.hpp"
#include "report/Undrain.hpp"
#include "FlagsTableFixture.hpp"
#include "TestSupport.hpp"
#include "history/NodeVerdict.hpp"

namespace {

using bws::Table;
using namespace bws::report;
using Lines = std::vector<std::string>;

// The fake commands write "name|arg1|arg2|..." per call to record.txt.
class ThroughSh : public bws::test::TempDirTest {
 protected:
  ThroughSh() : TempDirTest("bws_undrain_test") {}
  void SetUp() override {
    TempDirTest::SetUp();
    for (const char* name : {"scontrol", "flux", "pbsnodes"}) {
      const std::string path = file(name);
      std::ofstream(path) << "#!/bin/sh\nline=" << name << "\nfor a in \"$@\"; do line=\"$line|$a\"; done\n"
                          << "printf '%s\\n' \"$line\" >> \"" << file("record.txt") << "\"\n";
      std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    }
  }
  // Runs the lines with sh (the fakes first on PATH); returns what they recorded.
  Lines recorded(const Lines& lines) {
    std::ofstream(file("lines.sh")) << [&] {
      std::string text;
      for (const std::string& l : lines) text += l + "\n";
      return text;
    }();
    const std::string command = "PATH='" + dir_.string() + "':/usr/bin:/bin sh '" + file("lines.sh") + "'";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    Lines calls;
    std::ifstream in(file("record.txt"));
    for (std::string l; std::getline(in, l);) calls.push_back(l);
    return calls;
  }
};

TEST_F(ThroughSh, DrainAndResumeLinesGiveEachSchedulerItsArguments) {
  const std::string reason = "bwsurvey: stream.triad[double] 4.6GB/s 51% of cohort median job 7";
  EXPECT_EQ(recorded({drain_command_line(Scheduler::Slurm, "n1", reason), resume_command_line(Scheduler::Slurm, "n1"),
                      drain_command_line(Scheduler::Flux, "n2", reason), resume_command_line(Scheduler::Flux, "n2"),
                      drain_command_line(Scheduler::Pbs, "n3", reason), resume_command_line(Scheduler::Pbs, "n3")}),
            (Lines{"scontrol|update|NodeName=n1|State=DRAIN|Reason=" + reason, "scontrol|update|NodeName=n1|State=RESUME",
                   "flux|resource|drain|n2|" + reason, "flux|resource|undrain|n2",
                   "pbsnodes|-o|-N|" + reason + "|n3", "pbsnodes|-c|-N||n3"}));
}

TEST_F(ThroughSh, HostileWordsArriveAsOneArgumentAndRunNothing) {
  const std::string pwned = file("pwned");
  const Lines hostile = {"a b", "it's", "$(touch " + pwned + ")", "`touch " + pwned + "`", "x; touch " + pwned,
                         "back\\slash", "new\nline", "*", "", "'';touch " + pwned + ";''"};
  Lines lines, expected;
  for (const std::string& word : hostile) {
    lines.push_back(drain_command_line(Scheduler::Flux, word, word));
    expected.push_back("flux|resource|drain|" + word + "|" + word);
  }
  const Lines calls = recorded(lines);
  EXPECT_FALSE(std::filesystem::exists(pwned));
  // "new\nline" records as two lines: join the record back at that call.
  std::string joined_calls, joined_expected;
  for (const auto& c : calls) joined_calls += c + "\n";
  for (const auto& e : expected) joined_expected += e + "\n";
  EXPECT_EQ(joined_calls, joined_expected);
}

TEST(Scheduler, AnUnknownNameIsAUsageErrorNamingTheOptionAndTheChoices) {
  try {
    scheduler_named("lsf", "--format");
    FAIL() << "no error";
  } catch (const bws::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--format: 'lsf' is not a scheduler; allowed: slurm, flux or pbs"),
              std::string::npos) << e.what();
  }
}

TEST(NodeReasons, ScontrolShowNodeBlocksAndOneliners) {
  const std::string blocks =
      "NodeName=n1 Arch=x86_64 CoresPerSocket=2\n   State=IDLE+DRAIN ThreadsPerCore=1\n"
      "   Reason=bwsurvey: stream.triad[double] 4.6GB/s 51% of cohort median job 7 [root@2026-11-27T10:00:00]\n\n"
      "NodeName=n2 Arch=x86_64\n   State=IDLE\n\n"
      "NodeName=n3 Arch=x86_64\n   State=DRAIN\n   Reason=bad DIMM, ticket 42 [alice@2026-11-20T09:00:00]\n";
  const auto parsed = parse_node_reasons(blocks);
  ASSERT_EQ(parsed.size(), 2u);
  EXPECT_EQ(parsed[0].host, "n1");
  EXPECT_EQ(parsed[0].reason, "bwsurvey: stream.triad[double] 4.6GB/s 51% of cohort median job 7");
  EXPECT_EQ(parsed[1].host, "n3");
  EXPECT_EQ(parsed[1].reason, "bad DIMM, ticket 42");
  const auto oneliners = parse_node_reasons(
      "NodeName=n4 Arch=x86_64 State=DRAIN Reason=bwsurvey: links.node_out 13MB/s 26% of cohort median nojob "
      "[root@2026-11-27T10:00:00] \nNodeName=n5 Arch=x86_64 State=IDLE Reason=(null)\n");
  ASSERT_EQ(oneliners.size(), 1u);
  EXPECT_EQ(oneliners[0].host, "n4");
  EXPECT_TRUE(is_bwsurvey_reason(oneliners[0].reason)) << oneliners[0].reason;
}

TEST(NodeReasons, SinfoDashRAndPlainLinesWithHostLists) {
  const auto sinfo = parse_node_reasons(
      "REASON               USER      TIMESTAMP           NODELIST\n"
      "bwsurvey: stream.tri root      2026-11-27T10:00:00 n[1-2]\n"
      "operator maintenance alice     2026-11-26T08:00:00 n7\n");
  ASSERT_EQ(sinfo.size(), 3u);
  EXPECT_EQ(sinfo[0].host, "n1");
  EXPECT_EQ(sinfo[1].host, "n2");
  EXPECT_EQ(sinfo[1].reason, "bwsurvey: stream.tri");
  EXPECT_EQ(sinfo[2].reason, "operator maintenance");
  const auto plain = parse_node_reasons("# flux, cut to HOST REASON\nn8 bwsurvey: x\nn9 NHC: disk full\n");
  ASSERT_EQ(plain.size(), 2u);
  EXPECT_TRUE(is_bwsurvey_reason(plain[0].reason));
  EXPECT_FALSE(is_bwsurvey_reason(plain[1].reason));
  EXPECT_THROW(parse_node_reasons("n[3-1 bwsurvey: x\n"), bws::UsageError);
}

Table nodes_table(const Lines& hosts) {
  Table t("nodes/table", {bws::text_column("host", bws::kHostWidth)});
  for (const auto& h : hosts) t.add_row({{"host", h}});
  return t;
}

Table flags_of(const std::vector<std::pair<std::string, std::string>>& host_status) {
  Table t = bws::model::make_flags_table();
  for (const auto& [host, status] : host_status) {
    std::vector<std::pair<std::string, bws::Value>> cells;
    cells.emplace_back("host", host);
    cells.emplace_back("metric", std::string("stream.triad[double]"));
    cells.emplace_back("status", status);
    bws::test::add_flags_row(t, cells);
  }
  return t;
}

// A node flagged by --flags.floor alone in its cohort has no median: the
// reason names the floor instead of printing nan.
TEST(DrainReason, AFloorFlagNamesItsFloor) {
  Table t = flags_of({{"n1", bws::model::kFlagConfirmed}, {"n2", bws::model::kFlagConfirmed}});
  t.set(0, "value", 67.2e9);
  t.set(0, "threshold", 80e9);
  t.set(0, "unit", std::string("B/s"));
  t.set(0, "rule", std::string("floor"));
  t.set(1, "metric", std::string("beff.latency"));
  t.set(1, "value", 4.2e-6);
  t.set(1, "threshold", 3e-6);
  t.set(1, "unit", std::string("s"));
  t.set(1, "rule", std::string("floor"));
  Lines refusals;
  const Lines lines = drain_lines(t, "", false, refusals, Scheduler::Flux);
  EXPECT_EQ(lines, (Lines{"flux resource drain n1 'bwsurvey: stream.triad[double] 67.2GB/s below floor 80GB/s nojob'",
                          "flux resource drain n2 'bwsurvey: beff.latency 4.2us above limit 3us nojob'"}));
  for (const auto& l : lines) EXPECT_EQ(l.find("nan"), std::string::npos) << l;
}

TEST(Undrain, OnlyBwsurveysDrainsOfHealthyNodesAreResumed) {
  const Table nodes = nodes_table({"n1", "n2", "n3", "n4", "n5"});
  const Table flags = flags_of({{"n2", bws::model::kFlagConfirmed},
                                {"n3", bws::model::kFlagTransient},
                                {"n5", bws::model::kFlagNotRetested},
                                {"s1->top", bws::model::kFlagConfirmed}});
  const SurveyStanding standing = survey_standing(&nodes, &flags);
  const std::vector<NodeReason> reasons = {{"n1", "bwsurvey: stream.triad[double] 4GB/s 50% of cohort median job 1"},
                                           {"n2", "bwsurvey: stream.triad[double] 4GB/s 50% of cohort median job 1"},
                                           {"n3", "bwsurvey: unretested stream.copy[double] 6GB/s"},
                                           {"n4", "operator: bwsurvey says it is fine, but fan broken"},
                                           {"n5", "bwsurvey: x"},
                                           {"n9", "bwsurvey: x"}};
  const UndrainPlan plan = plan_undrain(reasons, standing, Scheduler::Slurm);
  EXPECT_EQ(plan.lines, (Lines{"scontrol update NodeName=n1 State=RESUME", "scontrol update NodeName=n3 State=RESUME"}));
  EXPECT_EQ(plan.kept_flagged, (Lines{"n2", "n5"}));
  EXPECT_EQ(plan.kept_unknown, (Lines{"n9"}));
  EXPECT_EQ(plan.others, 1u);
  EXPECT_EQ(undrain_note(plan, "s.h5"),
            "bwreport undrain: 2 nodes resumed; 2 bwsurvey drains kept (still flagged in s.h5: n2 n5); 1 bwsurvey "
            "drain kept (no verdict in s.h5: n9); 1 other drain left alone; nothing was executed");
  // A survey that ran no node checks judges nobody: nothing is resumed.
  EXPECT_TRUE(plan_undrain(reasons, survey_standing(&nodes, nullptr), Scheduler::Slurm).lines.empty());
}

class UndrainCommand : public bws::test::TempDirTest {
 protected:
  UndrainCommand() : TempDirTest("bws_undrain_cmd") {}
  std::string write_survey() {
    const std::string path = file("s.h5");
    bws::h5::ResultFile f = bws::h5::ResultFile::create(path, false);
    f.set_attribute("/provenance", "host", std::string("login1"));
    f.append(nodes_table({"n1", "n2"}));
    f.append(flags_of({{"n2", bws::model::kFlagConfirmed}}));
    f.close();
    return path;
  }
  int run(const Lines& args, const std::string& stdin_text = "") {
    out_.str("");
    err_.str("");
    std::istringstream in(stdin_text);
    return run_undrain(args, in, out_, err_);
  }
  std::ostringstream out_, err_;
};

TEST_F(UndrainCommand, ReasonsFromStdinAndFromAFileInEachFormat) {
  const std::string survey = write_survey();
  const std::string listing = "n1 bwsurvey: a\nn2 bwsurvey: b\n";
  EXPECT_EQ(run({survey, "--reasons", "-"}, listing), 0);
  EXPECT_EQ(out_.str(), "scontrol update NodeName=n1 State=RESUME\n");
  EXPECT_NE(err_.str().find("1 node resumed; 1 bwsurvey drain kept (still flagged in"), std::string::npos) << err_.str();
  std::ofstream(file("reasons.txt")) << listing;
  EXPECT_EQ(run({survey, "--reasons", file("reasons.txt"), "--format", "pbs"}), 0);
  EXPECT_EQ(out_.str(), "pbsnodes -c -N '' n1\n");
}

TEST_F(UndrainCommand, FluxWithoutReasonsAndAMissingReasonsFileAreRefused) {
  const std::string survey = write_survey();
  EXPECT_THROW(run({survey, "--format", "flux"}), bws::UsageError);
  EXPECT_ANY_THROW(run({survey, "--reasons", file("missing.txt")}));
  EXPECT_EQ(out_.str(), "");
}

}  // namespace

// bwreport verdict's one line and exit code, from a survey's facts and its
// /flags: a health check reads it (never measures) and acts on the code.
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
const SurveyFacts kSurvey{"4242", "2026-11-27T00:00:00Z", kCreated, true, ""};

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

// A campaign's batches judged as one (report/CampaignJudgement.hpp), from
// injected node tables: the verdicts of a one-shot survey of the same
// nodes, the batch's retest kept, a batch effect named; and the campaign
// file bwreport campaign writes, read back by bwreport verdict.
#include "history/NodeVerdict.hpp"
#include "report/CampaignFile.hpp"
#include "report/CampaignJudgement.hpp"
#include "catalog/Registry.hpp"

namespace {

constexpr double kGBps = 1e9;

// /stream/nodes rows (Triad, cpu, double) of `values` (host -> B/s).
Table triad_nodes(const std::vector<std::pair<std::string, double>>& values) {
  Table t("stream/nodes", {bws::text_column("host", bws::kHostWidth), bws::text_column("kernel", 16),
                           bws::text_column("backend", 16), bws::text_column("type", 16),
                           bws::real_column("bandwidth", "B/s")});
  for (const auto& [host, Bps] : values)
    t.add_row({{"host", host}, {"kernel", std::string("Triad")}, {"backend", std::string("cpu")},
               {"type", std::string("double")}, {"bandwidth", Bps}});
  return t;
}

CampaignBatch batch_of(const std::string& job, const std::vector<std::pair<std::string, double>>& values,
                       Table flags = bws::model::make_flags_table()) {
  Lines hosts;
  for (const auto& v : values) hosts.push_back(v.first);
  return {"job " + job, {triad_nodes(values)}, std::move(flags), hosts};
}

// The batch's own flag of `host`, with its retest rounds.
Table own_flag(const std::string& host, double value, const std::string& retests, const std::string& status) {
  Table t = bws::model::make_flags_table();
  std::vector<std::pair<std::string, bws::Value>> cells = {
      {"host", host},          {"cohort", std::string("unknown hardware")},
      {"metric", std::string("stream.triad[double]")}, {"value", value},
      {"unit", std::string("B/s")}, {"rule", std::string("fraction")},
      {"reason", std::string("below 0.75 x the peers' median")}, {"retest_values", retests},
      {"status", status}};
  bws::test::add_flags_row(t, cells);
  return t;
}

Lines flagged(const Table& flags) {
  Lines out;
  for (std::size_t r = 0; r < flags.rows(); ++r)
    out.push_back(flags.get_string(r, "host") + " " + flags.get_string(r, "metric") + " " + flags.get_string(r, "status"));
  return out;
}

const std::vector<std::pair<std::string, double>> kEight = {
    {"n1", 20.1 * kGBps}, {"n2", 19.8 * kGBps}, {"n3", 3.4 * kGBps}, {"n4", 20.4 * kGBps},
    {"n5", 19.6 * kGBps}, {"n6", 20.0 * kGBps}, {"n7", 20.3 * kGBps}, {"n8", 19.9 * kGBps}};

std::vector<std::pair<std::string, double>> part(std::size_t from, std::size_t to) {
  return {kEight.begin() + static_cast<long>(from), kEight.begin() + static_cast<long>(to)};
}

TEST(CampaignJudgement, BatchesJudgedAsOneGiveTheOneShotVerdictsAndKeepTheBatchRetest) {
  const bws::model::FlagSettings settings;
  // The one-shot survey of the 8 nodes: n3 alone is flagged.
  const Table one_shot = bws::model::node_flags(bws::catalog::all_node_metrics(), {triad_nodes(kEight)}, settings);
  ASSERT_EQ(flagged(one_shot), (Lines{"n3 stream.triad[double] not retested"}));
  // Batches of 3, 3 and 2; n3's batch flagged it and its retest read 3.5 GB/s.
  const auto judged = judge_campaign(
      {batch_of("11", part(0, 3), own_flag("n3", 3.4 * kGBps, "3.5e9", bws::model::kFlagConfirmed)),
       batch_of("12", part(3, 6)), batch_of("13", part(6, 8))},
      settings, {});
  EXPECT_EQ(flagged(judged.flags), (Lines{"n3 stream.triad[double] confirmed"}));
  EXPECT_EQ(judged.flags.get_double(0, "retest_median"), 3.5e9);
  // Judged in the cohort of 8, as the one-shot survey judged it (the spread rule's limit).
  EXPECT_EQ(judged.flags.get_double(0, "threshold"), one_shot.get_double(0, "threshold"));
  EXPECT_EQ(judged.flags.get_string(0, "rule"), one_shot.get_string(0, "rule"));
  EXPECT_TRUE(judged.lines.empty());
  for (std::size_t r = 0; r < judged.batch_effects.rows(); ++r)
    EXPECT_EQ(judged.batch_effects.get_int(r, "affected"), 0) << judged.batch_effects.get_string(r, "batch");
}

TEST(CampaignJudgement, AFlagItsBatchDidNotRetestStaysNotRetestedAndARetestIsJudgedAtTheCampaignsThreshold) {
  const bws::model::FlagSettings settings;
  // n3 in a batch of 2 (no in-batch judgment, no retest); n1's batch
  // retested its flag: 20.0 GB/s in the median, back with its peers.
  const auto judged = judge_campaign(
      {batch_of("21", {{"n1", 12.0 * kGBps}, {"n2", 19.8 * kGBps}, {"n4", 20.4 * kGBps}},
                own_flag("n1", 12.0 * kGBps, "20e9,20.4e9,19.8e9", bws::model::kFlagTransient)),
       batch_of("22", {{"n3", 3.4 * kGBps}, {"n5", 19.6 * kGBps}}), batch_of("23", part(5, 8))},
      settings, {});
  // n1 at 12 GB/s is below 0.75 x 20 = 15 GB/s; its retests' median, 20 GB/s, is above any limit: transient.
  EXPECT_EQ(flagged(judged.flags), (Lines{"n1 stream.triad[double] not confirmed (transient)",
                                          "n3 stream.triad[double] not retested"}));
}

TEST(CampaignJudgement, ABatchMeasuredLowIsNamedAndItsNodesKeepTheirOwnSurveysVerdicts) {
  const bws::model::FlagSettings settings;
  // Batch 32 ran during a noisy hour: its three nodes at 60 % (its median
  // node, the upper median of 6.0, 12.0, 12.2, against the other 5 nodes'
  // median, 20.1 GB/s); its own
  // survey flagged n5 (at half of its batch peers) and confirmed it.
  const auto judged = judge_campaign(
      {batch_of("31", part(0, 2)),
       batch_of("32", {{"n4", 12.2 * kGBps}, {"n5", 6.0 * kGBps}, {"n6", 12.0 * kGBps}},
                own_flag("n5", 6.0 * kGBps, "5.9e9", bws::model::kFlagConfirmed)),
       batch_of("33", part(6, 8)), batch_of("34", {{"n9", 20.2 * kGBps}})},
      settings, {});
  ASSERT_EQ(judged.lines.size(), 1u);
  EXPECT_EQ(judged.lines[0],
            "batch job 32: stream.triad[double] median 12 GB/s = 60 % of the other batches' 20.1 GB/s (3 nodes of cohort "
            "unknown hardware): its nodes keep the verdicts of their own survey");
  // n4 and n6 (60 % of the others) are not flagged; n5 keeps its batch's confirmed flag.
  EXPECT_EQ(flagged(judged.flags), (Lines{"n5 stream.triad[double] confirmed"}));
  EXPECT_NE(judged.flags.get_string(0, "reason").find("within its batch (batch effect)"), std::string::npos);
  // A batch of one or two nodes is never called a batch effect: it cannot
  // tell a slow batch from a slow node.
  const auto small = judge_campaign({batch_of("41", part(0, 2)), batch_of("42", part(2, 4)), batch_of("43", part(4, 8))},
                                    settings, {});
  EXPECT_TRUE(small.lines.empty());
  EXPECT_EQ(flagged(small.flags), (Lines{"n3 stream.triad[double] not retested"}));
}

class CampaignCommand : public bws::test::TempDirTest {
 protected:
  CampaignCommand() : TempDirTest("bws_campaign_cmd") {}
  // A complete batch survey of `values`, job `job`, begun at `created`.
  std::string write_batch(const std::string& job, const std::vector<std::pair<std::string, double>>& values,
                          const std::string& created, const Table& flags = bws::model::make_flags_table()) {
    const std::string path = file("survey-" + job + ".h5");
    bws::h5::ResultFile f = bws::h5::ResultFile::create(path, false);
    f.set_attribute("/", "schema_version", std::string("3.0"));
    f.set_attribute("/", "status", std::string("complete"));
    f.set_attribute("/", "created_utc", created);
    f.set_attribute("/", "finished_utc", created);
    f.set_attribute("/", "n_nodes", static_cast<std::int64_t>(values.size()));
    f.set_attribute("/provenance", "slurm_job_id", job);
    Table nodes("nodes/table", {bws::text_column("host", bws::kHostWidth), bws::text_column("cpu_model", 64),
                                bws::int_column("cores"), bws::int_column("memory_bytes", "B")});
    for (const auto& v : values)
      nodes.add_row({{"host", v.first}, {"cpu_model", std::string("EPYC")}, {"cores", std::int64_t{64}},
                     {"memory_bytes", std::int64_t{256} << 30}});
    f.append(nodes);
    f.append(triad_nodes(values));
    f.append(flags);
    f.close();
    return path;
  }
  int run(const bws::report::ReportCommand& command, const Lines& args) {
    out_.str("");
    return command.run(args, out_);
  }
  std::ostringstream out_;
};

TEST_F(CampaignCommand, TheCampaignFileHoldsEveryNodeOnceAndVerdictReadsItsBatchAndWhatWasNotCovered) {
  std::ofstream(file("targets")) << "n1\nn2\nn3\nn4\nn5\nn6\nn7\nn8\nn9\n";
  const std::string a = write_batch("11", part(0, 3), "2026-11-27T01:00:00Z",
                                    own_flag("n3", 3.4 * kGBps, "3.5e9", bws::model::kFlagConfirmed));
  const std::string b = write_batch("12", part(3, 6), "2026-11-27T02:00:00Z");
  // The tail batch, padded with n1: n1's values now come from it.
  const std::string c = write_batch("13", {{"n7", 20.3 * kGBps}, {"n8", 19.9 * kGBps}, {"n1", 20.5 * kGBps}},
                                    "2026-11-27T03:00:00Z");
  const std::string out = file("campaign.h5");
  EXPECT_EQ(run(campaign_command(), {out, "--targets", file("targets"), a, b, c}), kCampaignNotCovered) << out_.str();
  EXPECT_NE(out_.str().find("covered 8 of 9 targets; not covered (busy, failed or given up): n9"), std::string::npos)
      << out_.str();
  EXPECT_NE(out_.str().find("Flagged nodes (1 of 8): n3"), std::string::npos) << out_.str();
  const auto f = bws::h5::ResultReader::open(out);
  EXPECT_TRUE(is_campaign_file(f));
  const Table nodes = f.read_table("stream/nodes");
  ASSERT_EQ(nodes.rows(), 8u);
  for (std::size_t r = 0; r < nodes.rows(); ++r)
    if (nodes.get_string(r, "host") == "n1") EXPECT_EQ(nodes.get_double(r, "bandwidth"), 20.5 * kGBps);
  EXPECT_EQ(flagged(f.read_table("flags")), (Lines{"n3 stream.triad[double] confirmed"}));
  EXPECT_TRUE(f.exists("/batches/02-job-12/stream/nodes")) << "each batch is kept whole";
  // verdict: each node's own batch and date; the uncovered target is not surveyed.
  const auto verdict = bws::history::verdict_command();
  EXPECT_EQ(run(verdict, {out, "--node", "n3"}), 3);
  EXPECT_NE(out_.str().find("survey 11 (campaign '"), std::string::npos) << out_.str();
  EXPECT_NE(out_.str().find("of 2026-11-27T01:00:00Z"), std::string::npos) << out_.str();
  EXPECT_EQ(run(verdict, {out, "--node", "n1"}), 0);
  EXPECT_NE(out_.str().find("survey 13 (campaign '"), std::string::npos) << out_.str();
  // A drain names the node's own batch job.
  EXPECT_EQ(run(drain_command(), {out}), 0);
  EXPECT_EQ(out_.str(), "scontrol update NodeName=n3 State=DRAIN 'Reason=bwsurvey: stream.triad[double] 3.4GB/s 17% "
                        "of cohort median job 11'\n");
  EXPECT_EQ(run(verdict, {out, "--node", "n9"}), 4);
  EXPECT_NE(out_.str().find("a target no batch covered"), std::string::npos) << out_.str();
  // Never over an input, never a campaign file as a batch.
  EXPECT_THROW(run(campaign_command(), {a, "--targets", file("targets"), a, b}), bws::UsageError);
  EXPECT_THROW(run(campaign_command(), {file("c2.h5"), "--targets", file("targets"), out}), bws::UsageError);
  std::ofstream(file("bad-targets")) << "n1 n2\n";
  EXPECT_THROW(run(campaign_command(), {file("c3.h5"), "--targets", file("bad-targets"), a}), bws::UsageError);
  EXPECT_FALSE(std::filesystem::exists(file("c3.h5")));
}

}  // namespace
