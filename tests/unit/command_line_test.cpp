#include <gtest/gtest.h>

#include "catalog/Registry.hpp"
#include "core/Errors.hpp"
#include "core/IniFile.hpp"
#include "core/OptionText.hpp"
#include "run/CommandLine.hpp"
#include "run/SurveySettings.hpp"

using namespace bws;
using namespace bws::run;
using namespace bws::catalog;

namespace {

CommandLine parse(std::vector<const char*> args, const std::string& ini = "") {
  args.insert(args.begin(), "bwsurvey");
  return parse_command_line(static_cast<int>(args.size()), args.data(),
                            [&](const std::string&) { return ini; });
}

std::string usage_error(std::vector<const char*> args, const std::string& ini = "") {
  try {
    const CommandLine cl = parse(args, ini);
    parse_survey_settings(cl.config);
  } catch (const UsageError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    return message;
  }
  return "";
}

}  // namespace

TEST(CommandLine, DefaultsAreFilledAndMarked) {
  const CommandLine cl = parse({});
  EXPECT_EQ(cl.config.get("tests"), "stream,beff");
  EXPECT_EQ(cl.config.get("out"), "survey.h5");
  EXPECT_EQ(cl.config.get("stream.reps"), "20");
  EXPECT_TRUE(cl.config.is_default("threads"));
  EXPECT_FALSE(cl.config.flag("quick"));
}

TEST(CommandLine, CommandLineWinsOverTheIniFile) {
  const std::string ini = "# comment\nthreads = 2\nquick = true\n[stream]\nreps = 7 ; trailing comment\ntype=float\n";
  const CommandLine cl = parse({"--config", "x.ini", "--stream.type", "double"}, ini);
  EXPECT_EQ(cl.config.get("threads"), "2");
  EXPECT_TRUE(cl.config.flag("quick"));
  EXPECT_EQ(cl.config.get("stream.reps"), "7");
  EXPECT_EQ(cl.config.get("stream.type"), "double");
}

TEST(CommandLine, EffectiveConfigReadsBack) {
  const CommandLine first = parse({"--threads", "1", "--stream.reps", "9", "--quick"});
  const std::string ini = first.config.to_ini(invocation_only_keys());
  EXPECT_EQ(ini.find("force"), std::string::npos);
  EXPECT_NE(ini.find("[stream]"), std::string::npos);
  const CommandLine second = parse({"--config", "back.ini"}, ini);
  EXPECT_EQ(second.config.to_ini(invocation_only_keys()), ini);
  EXPECT_EQ(second.config.get("stream.reps"), "9");
  EXPECT_TRUE(second.config.flag("quick"));
}

TEST(CommandLine, BadInputIsOneLineNamingTheProblem) {
  EXPECT_NE(usage_error({"--frobnicate"}).find("unknown option '--frobnicate'"), std::string::npos);
  EXPECT_NE(usage_error({"--tests", "stream,nosuch"}).find("--tests: unknown test 'nosuch'; available: stream"),
            std::string::npos);
  EXPECT_NE(usage_error({"--tests", ","}).find("--tests: no test given"), std::string::npos);
  EXPECT_NE(usage_error({"--tests", ""}).find("--tests: empty value"), std::string::npos);
  EXPECT_NE(usage_error({"--threads", "two"}).find("--threads: 'two' is not a whole number"), std::string::npos);
  EXPECT_NE(usage_error({"--threads", "0"}).find("--threads: '0' is out of range"), std::string::npos);
  EXPECT_NE(usage_error({"--threads", "-3"}).find("--threads"), std::string::npos);
  EXPECT_NE(usage_error({"--bind", "scatter"}).find("--bind"), std::string::npos);
  EXPECT_NE(usage_error({"--out", ""}).find("--out"), std::string::npos);
  EXPECT_NE(usage_error({"--threads"}).find("threads"), std::string::npos);  // missing value
}

TEST(CommandLine, IniErrorsNameTheLine) {
  EXPECT_NE(usage_error({"--config", "f.ini"}, "threads = 1\nthis is not ini\n").find("'f.ini' line 2: expected"),
            std::string::npos);
  EXPECT_NE(usage_error({"--config", "f.ini"}, "\n\n[stream\n").find("line 3: section header"), std::string::npos);
  EXPECT_NE(usage_error({"--config", "f.ini"}, "[stream]\nnosuch = 1\n").find("line 2: unknown option 'stream.nosuch'"),
            std::string::npos);
  EXPECT_NE(usage_error({"--config", "f.ini"}, "config = other.ini\n").find("line 1: unknown option 'config'"),
            std::string::npos);
}

TEST(IniFile, MissingAndDirectoryAreUsageErrors) {
  EXPECT_THROW(read_config_file("/nonexistent/bwsurvey.ini"), UsageError);
  EXPECT_THROW(read_config_file(::testing::TempDir()), UsageError);
}

TEST(IniFile, SectionsPrefixKeys) {
  const auto entries = parse_ini("a = 1\n[stream]\nb = two words\n[pmbw]\nc=\n", "x");
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].key, "a");
  EXPECT_EQ(entries[1].key, "stream.b");
  EXPECT_EQ(entries[1].value, "two words");
  EXPECT_EQ(entries[2].key, "pmbw.c");
  EXPECT_EQ(entries[2].line, 5);
}

TEST(OptionText, RangeItems) {
  using bws::split_range_item;
  EXPECT_EQ(split_range_item("1..7"), std::make_optional(std::make_pair(std::string("1"), std::string("7"))));
  EXPECT_EQ(split_range_item("2-4"), std::make_optional(std::make_pair(std::string("2"), std::string("4"))));
  EXPECT_FALSE(split_range_item("5").has_value());
  EXPECT_FALSE(split_range_item("-3").has_value());  // a negative number, for the caller to reject
}

// The survey's switches follow the rule of every boolean option: on|off
// (true/false, yes/no, 1/0 too), the switch alone means on, a value only
// with '='; a separate word after a switch is refused, never taken as its
// value ("--quick stream" is a forgotten --tests, not "quick = stream").
TEST(CommandLine, SurveySwitchesFollowTheOneBooleanRule) {
  for (const char* name : {"quick", "force", "fail-on-flags"}) {
    const std::string alone = std::string("--") + name;
    EXPECT_TRUE(parse({alone.c_str()}).config.flag(name)) << alone;
    EXPECT_FALSE(parse({}).config.flag(name)) << name;
    for (const char* on : {"on", "true", "YES", "1"}) {
      const std::string given = alone + "=" + on;
      EXPECT_TRUE(parse({given.c_str()}).config.flag(name)) << given;
    }
    for (const char* off : {"off", "false", "No", "0"}) {
      const std::string given = alone + "=" + off;
      EXPECT_FALSE(parse({given.c_str()}).config.flag(name)) << given;
    }
    const std::string bad = alone + "=maybe";
    EXPECT_EQ(usage_error({bad.c_str()}),
              alone + ": 'maybe' is not on or off; allowed: on, off");  // as every boolean option says it
    EXPECT_NE(usage_error({alone.c_str(), "off"}).find("unexpected argument 'off' (after " + alone + ")"),
              std::string::npos);
  }
  // A benchmark's boolean: the same words; its old separate-word form stays.
  EXPECT_EQ(parse({"--pmbw.quadratic=off"}).config.get("pmbw.quadratic"), "off");
  EXPECT_EQ(parse({"--pmbw.quadratic", "off"}).config.get("pmbw.quadratic"), "off");
  EXPECT_EQ(parse({"--pmbw.quadratic"}).config.get("pmbw.quadratic"), "on");
  // And in an INI file.
  EXPECT_TRUE(parse({"--config", "x.ini"}, "quick = on\nforce = yes\n").config.flag("quick"));
  EXPECT_TRUE(parse({"--config", "x.ini"}, "quick = on\nforce = yes\n").config.flag("force"));
  // A stored "quick = true" (files written before the rule) reads as on.
  EXPECT_TRUE(parse({"--config", "x.ini"}, "quick = true\n").config.flag("quick"));
}
