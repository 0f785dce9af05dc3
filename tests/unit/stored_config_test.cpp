// The configuration a survey stores (/config, and what
// --print-config prints) re-runs the same plan: --quick's shorter sweeps
// come back through --config and through --resume, because options left at
// their defaults are stored as "# default:" lines and read back as defaults.
// Expected values are the documented ones (--help: "--quick with the
// default: 5" STREAM repetitions; BS 12 points, 5 reps; otherwise 20, 24, 20).
#include <gtest/gtest.h>

#include "TestSupport.hpp"
#include "bs/BsPlan.hpp"
#include "core/Benchmark.hpp"
#include "run/CommandLine.hpp"
#include "run/SurveySettings.hpp"
#include "stream/StreamPlan.hpp"
#include "topology/Topology.hpp"

using namespace bws;
using namespace bws::run;
using namespace bws::catalog;

namespace {

CommandLine parse(std::vector<const char*> args, const std::string& config_text = "",
                  const std::string& stored_text = "") {
  args.insert(args.begin(), "bwsurvey");
  return parse_command_line(
      static_cast<int>(args.size()), args.data(), [&](const std::string&) { return config_text; },
      [&](const std::string&) { return stored_text; });
}

struct Plan {
  int stream_reps;
  int bs_points, bs_reps;
};

Plan plan_of(const CommandLine& cl) {
  const topo::Topology topology =
      topo::Topology::synthetic("numa:1(memory=24GiB) pack:1 l3:1(size=4MiB) core:2 pu:1");
  const NodeContext node{topology, "node1", 0, 1, 0, 2, parse_survey_settings(cl.config).quick, MachineSpeed{}, 0};
  const bs::BsParams bs = bs::plan_bs(cl.config, node);
  return {stream::plan_stream_common(cl.config, node.quick).reps, bs.points, bs.reps};
}

std::string stored(const CommandLine& cl) { return cl.config.to_ini(invocation_only_keys()); }

}  // namespace

TEST(StoredConfig, QuickPlansAlikeThroughPrintConfigAndResume) {
  const CommandLine quick = parse({"--quick", "--tests", "stream,bs", "--threads", "1"});
  const Plan first = plan_of(quick);
  EXPECT_EQ(first.stream_reps, 5);
  EXPECT_EQ(first.bs_points, 12);
  EXPECT_EQ(first.bs_reps, 5);

  // --print-config > q.ini; --config q.ini
  const CommandLine replayed = parse({"--config", "q.ini"}, stored(quick));
  const Plan again = plan_of(replayed);
  EXPECT_EQ(again.stream_reps, 5);
  EXPECT_EQ(again.bs_points, 12);
  EXPECT_EQ(again.bs_reps, 5);
  EXPECT_EQ(stored(replayed), stored(quick));

  // --resume FILE with the file's /config
  const CommandLine resumed = parse({"--resume", "f.h5"}, "", stored(quick));
  const Plan resumed_plan = plan_of(resumed);
  EXPECT_EQ(resumed_plan.stream_reps, 5);
  EXPECT_EQ(resumed_plan.bs_points, 12);
  EXPECT_EQ(resumed_plan.bs_reps, 5);
  EXPECT_TRUE(resumed.config.is_default("stream.reps"));
  EXPECT_TRUE(resumed.config.flag("quick"));

  // Without --quick the full plan, the same way round.
  const CommandLine full = parse({"--tests", "stream,bs"});
  EXPECT_EQ(plan_of(parse({"--resume", "f.h5"}, "", stored(full))).stream_reps, 20);
  EXPECT_EQ(plan_of(parse({"--config", "f.ini"}, stored(full))).bs_points, 24);
}

TEST(StoredConfig, SetValuesAreLinesAndDefaultsAreComments) {
  const std::string text = stored(parse({"--quick", "--stream.reps", "9"}));
  EXPECT_NE(text.find("\nquick = on\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n[stream]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nreps = 9\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n# default: type = double\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n# default: threads = auto\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("\nthreads = "), std::string::npos) << text;
  EXPECT_EQ(default_lines_of("a = 1\n# default: b = 2\n[s]\n  # default: c = x y\n# other\n"),
            "\nb = 2\n[s]\nc = x y\n\n");
}

TEST(StoredConfig, AResumeKeepsTheStoredDefaultsAndRefusesToSetThem) {
  // The file records the default that was in effect (another version's,
  // say): the resume plans with it, as a default.
  const std::string text = "quick = true\ntests = stream\n[stream]\n# default: reps = 11\n";
  const CommandLine resumed = parse({"--resume", "f.h5"}, "", text);
  EXPECT_EQ(resumed.config.get("stream.reps"), "11");
  EXPECT_TRUE(resumed.config.is_default("stream.reps"));
  EXPECT_EQ(stream::stream_schema().read(resumed.config, false).reps, 11);
  // The same default stored under the old name (a file written before the
  // rename to stream.reps) plans alike.
  const CommandLine old_name = parse({"--resume", "f.h5"}, "", "tests = stream\n[stream]\n# default: ntimes = 13\n");
  EXPECT_EQ(stream::stream_schema().read(old_name.config, false).reps, 13);
  EXPECT_EQ(stream::stream_schema().read(old_name.config, false).flag(&stream::StreamOptions::reps), "--stream.reps");
  // An option left at its default may not be set by the resume (not even to
  // the default's text: with --quick that is another plan).
  EXPECT_EQ(test::usage_error_of([&] { parse({"--resume", "f.h5", "--stream.reps", "11"}, "", text); }),
            "--resume: --stream.reps was left at its default in 'f.h5'; a resumed survey keeps its configuration "
            "(leave the option out)");
  EXPECT_EQ(test::usage_error_of([&] { parse({"--resume", "f.h5"}, "", "[stream]\n# default: bogus = 1\n"); }),
            "--resume: 'f.h5' was written with option 'stream.bogus', which this bwsurvey does not have");
  // A survey run without --quick is not resumed with it.
  EXPECT_EQ(test::usage_error_of([&] { parse({"--resume", "f.h5", "--quick"}, "", "# default: quick = false\n"); }),
            "--resume: --quick was left at its default in 'f.h5'; a resumed survey keeps its configuration "
            "(leave the option out)");
}
