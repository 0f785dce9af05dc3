// The typed option schema (core/OptionSchema.hpp): values parsed into a
// typed struct, range errors naming the option and its range, --quick
// values, old names (and two spellings that disagree), --help lines, and
// the stored configuration's round trip. Expected values are written out
// by hand (64K = 65536 bytes, 2.5e-3 s = 0.0025 s).
#include <gtest/gtest.h>

#include <sstream>

#include <boost/program_options/options_description.hpp>

#include "TestSupport.hpp"
#include "core/Errors.hpp"
#include "core/OptionSchema.hpp"
#include "core/OptionText.hpp"
#include "pmbw/PmbwOptions.hpp"
#include "run/CommandLine.hpp"

using namespace bws;

namespace {

enum class Path { Host, Device };
enum class Method { Sendrecv, Nonblocking };

struct TestOptions : TypedOptions {
  int reps = 0;
  std::optional<std::uint64_t> max_bytes;
  std::vector<std::uint64_t> sizes;
  double min_time = 0;
  Path path = Path::Host;
  std::vector<Method> methods;
  bool huge_pages = false;
  std::string stats;
  std::vector<int> odd_numbers;  // read by the test's own grammar
  std::string unbound;
};

// A grammar of the options' own: a comma list of odd whole numbers.
std::vector<int> read_odd_numbers(const OptionValue& v) {
  std::vector<int> numbers;
  for (const std::string& item : split_comma_list(v.text)) {
    const int n = std::stoi(item);
    if (n % 2 == 0) throw UsageError(v.flag + ": " + item + " is even; allowed: odd numbers");
    numbers.push_back(n);
  }
  return numbers;
}

const OptionSchema<TestOptions>& schema() {
  static const OptionSchema<TestOptions> s({
      bind_option(whole_option("t.reps", "3", 1, 1000, "samples", "t: samples").alias("t.samples"), &TestOptions::reps),
      bind_option(bytes_option("t.max-bytes", "auto", 4104, UINT64_C(1) << 50, "t: largest size").or_auto(),
                  &TestOptions::max_bytes),
      bind_option(bytes_list_option("t.sizes", "", 1, UINT64_C(1) << 50, "t: sizes"), &TestOptions::sizes),
      bind_option(real_option("t.min-time", "1.0", 0, 60, "seconds", "t: sample time").above_min().quick("0.02"),
                  &TestOptions::min_time),
      bind_option(one_of_option("t.path", "host", {"host", "device"}, "t: where").called("path"), &TestOptions::path),
      bind_option(list_option("t.methods", "sendrecv", {"sendrecv", "nonblocking"}, "t: methods").called("method").all("both"),
                  &TestOptions::methods),
      bind_option(flag_option("t.huge-pages", true, "t: 2 MiB pages"), &TestOptions::huge_pages),
      bind_option(text_option("t.stats", "", "t: a file"), &TestOptions::stats),
      bind_option(text_option("t.odd", "1,3", "t: odd numbers").alias("t.odds"), &TestOptions::odd_numbers,
                  read_odd_numbers),
  });
  return s;
}

Config config_with(std::vector<std::pair<std::string, std::string>> values) {
  Config config;
  for (auto& [k, v] : values) config.set(k, v);
  return config;
}

TestOptions read(std::vector<std::pair<std::string, std::string>> values, bool quick = false) {
  return schema().read(config_with(std::move(values)), quick);
}

// Every needle stands in text.
void expect_all_in(const std::string& text, const std::vector<std::string>& needles) {
  for (const std::string& needle : needles) EXPECT_NE(text.find(needle), std::string::npos) << needle << " in\n" << text;
}

std::string error_of(std::vector<std::pair<std::string, std::string>> values) {
  return test::usage_error_of([&] { read(values); });
}

}  // namespace

TEST(OptionSchema, DefaultsAndGivenValuesArriveTyped) {
  const TestOptions d = read({});
  EXPECT_EQ(d.reps, 3);
  EXPECT_FALSE(d.max_bytes.has_value());  // auto
  EXPECT_TRUE(d.sizes.empty());
  EXPECT_DOUBLE_EQ(d.min_time, 1.0);
  EXPECT_EQ(d.path, Path::Host);
  EXPECT_EQ(d.methods, (std::vector<Method>{Method::Sendrecv}));
  EXPECT_TRUE(d.huge_pages);
  EXPECT_EQ(d.flag(&TestOptions::reps), "--t.reps");
  EXPECT_EQ(d.flag(&TestOptions::stats), "--t.stats");

  const TestOptions g = read({{"t.reps", " 12 "}, {"t.max-bytes", "64K"}, {"t.sizes", "1K, 8,1MiB"}, {"t.min-time", "2.5e-3"},
                              {"t.path", "DEVICE"}, {"t.methods", "nonblocking,sendrecv,nonblocking"},
                              {"t.huge-pages", "no"}, {"t.stats", " out.txt "}});
  EXPECT_EQ(g.reps, 12);
  EXPECT_EQ(g.max_bytes, std::optional<std::uint64_t>(65536));
  EXPECT_EQ(g.sizes, (std::vector<std::uint64_t>{1024, 8, 1048576}));
  EXPECT_DOUBLE_EQ(g.min_time, 0.0025);
  EXPECT_EQ(g.path, Path::Device);
  EXPECT_EQ(g.methods, (std::vector<Method>{Method::Nonblocking, Method::Sendrecv}));
  EXPECT_FALSE(g.huge_pages);
  EXPECT_EQ(g.stats, "out.txt");
  EXPECT_EQ(read({{"t.methods", "both"}}).methods, (std::vector<Method>{Method::Sendrecv, Method::Nonblocking}));
  for (const char* on : {"on", "true", "YES", "1"}) EXPECT_TRUE(read({{"t.huge-pages", on}}).huge_pages) << on;
  for (const char* off : {"off", "False", "no", "0"}) EXPECT_FALSE(read({{"t.huge-pages", off}}).huge_pages) << off;
}

TEST(OptionSchema, OwnGrammarsReadIntoTheirFieldAndNameTheSpellingGiven) {
  EXPECT_EQ(read({}).odd_numbers, (std::vector<int>{1, 3}));
  const TestOptions o = read({{"t.odds", "5,7,9"}});
  EXPECT_EQ(o.odd_numbers, (std::vector<int>{5, 7, 9}));
  EXPECT_EQ(o.flag(&TestOptions::odd_numbers), "--t.odds");
  EXPECT_EQ(error_of({{"t.odd", "1,4"}}), "--t.odd: 4 is even; allowed: odd numbers");
  EXPECT_THROW(o.flag(&TestOptions::unbound), std::logic_error);  // no option fills it
  EXPECT_EQ(schema().name_of(&TestOptions::odd_numbers), "t.odd");  // the declared name, whatever was typed
  EXPECT_EQ(schema().name_of(&TestOptions::max_bytes), "t.max-bytes");
  EXPECT_THROW(schema().name_of(&TestOptions::unbound), std::logic_error);
}

TEST(OptionSchema, BadValuesNameTheOptionAndTheRange) {
  EXPECT_EQ(error_of({{"t.reps", "0"}}), "--t.reps: '0' is out of range; allowed: 1..1000 samples");
  EXPECT_EQ(error_of({{"t.reps", "ten"}}), "--t.reps: 'ten' is not a whole number; allowed: 1..1000 samples");
  EXPECT_EQ(error_of({{"t.reps", "99999999999999999999"}}),
            "--t.reps: '99999999999999999999' is out of range; allowed: 1..1000 samples");
  EXPECT_EQ(error_of({{"t.max-bytes", "4K"}}), "--t.max-bytes: '4K' is out of range; allowed: 4104..1 PiB or auto");
  EXPECT_NE(error_of({{"t.max-bytes", "12x"}}).find("--t.max-bytes: '12x' has an unknown suffix"), std::string::npos);
  EXPECT_EQ(error_of({{"t.min-time", "0"}}), "--t.min-time: '0' is out of range; allowed: > 0 and <= 60 seconds");
  EXPECT_EQ(error_of({{"t.min-time", "nan"}}), "--t.min-time: 'nan' is not a number; allowed: > 0 and <= 60 seconds");
  EXPECT_EQ(error_of({{"t.path", "pcie"}}), "--t.path: unknown path 'pcie'; allowed: host, device");
  EXPECT_EQ(error_of({{"t.methods", "sendrecv,isend"}}),
            "--t.methods: unknown method 'isend'; allowed: both, or a comma list of sendrecv, nonblocking");
  EXPECT_NE(error_of({{"t.methods", "sendrecv,,nonblocking"}}).find("has an empty entry"), std::string::npos);
  EXPECT_EQ(error_of({{"t.huge-pages", "maybe"}}), "--t.huge-pages: 'maybe' is not on or off; allowed: on, off");
  EXPECT_NE(error_of({{"t.sizes", "1K,1024"}}).find("--t.sizes: '1024' is given twice (1024 bytes)"), std::string::npos);
  EXPECT_NE(error_of({{"t.sizes", " , "}}).find("is an empty size list"), std::string::npos);
}

TEST(OptionSchema, QuickReplacesOnlyWhatWasLeftAtItsDefault) {
  EXPECT_DOUBLE_EQ(read({}, true).min_time, 0.02);
  EXPECT_DOUBLE_EQ(read({}, false).min_time, 1.0);
  EXPECT_DOUBLE_EQ(read({{"t.min-time", "1.0"}}, true).min_time, 1.0);  // given, even as the default's text
  EXPECT_EQ(read({}, true).reps, 3);                                     // no --quick value: the default
  EXPECT_NE(schema().list().spec("t.min-time").help_line().find("(--quick with the default: 0.02)"), std::string::npos);
}

TEST(OptionSchema, OldNamesWorkAndTwoSpellingsMustAgree) {
  const TestOptions o = read({{"t.samples", "7"}});
  EXPECT_EQ(o.reps, 7);
  EXPECT_EQ(o.flag(&TestOptions::reps), "--t.samples");  // plan()'s messages name it as given
  EXPECT_EQ(o.flag(&TestOptions::min_time), "--t.min-time");
  EXPECT_EQ(error_of({{"t.samples", "0"}}), "--t.samples: '0' is out of range; allowed: 1..1000 samples");
  EXPECT_EQ(read({{"t.reps", "7"}, {"t.samples", " 7"}}).reps, 7);  // the same value twice
  EXPECT_EQ(error_of({{"t.reps", "5"}, {"t.samples", "7"}}),
            "--t.reps '5' and --t.samples '7' are one option (--t.reps and its old name) with two values; allowed: one "
            "value");
}

TEST(OptionSchema, HelpShowsDefaultUnitRangeAndOldNames) {
  boost::program_options::options_description desc;
  schema().add_to(desc);
  std::ostringstream text;
  text << desc;
  std::string help = text.str();
  for (std::size_t at; (at = help.find("\n ")) != std::string::npos;) help.erase(at, help.find_first_not_of(' ', at + 1) - at);
  expect_all_in(help, {"--t.reps arg (=3)", "t: samples; allowed: 1..1000 samples; old name: --t.samples",
                       "--t.samples arg", "old name of --t.reps", "--t.min-time arg (=1.0)", "> 0 and <= 60 seconds",
                       "--t.huge-pages [=arg(=on)] (=on)"});
  ASSERT_NE(desc.find_nothrow("t.huge-pages", false), nullptr);
  EXPECT_EQ(desc.find_nothrow("t.huge-pages", false)->semantic()->min_tokens(), 0u);  // alone: on
}

// bwsurvey's own command line and INI text: only what was set is a line,
// defaults are "# default:" comments, an old name is kept as given, and
// the text read back through --config gives the same typed options.
TEST(OptionSchema, StoredConfigurationHoldsWhatWasSetAndReadsBack) {
  const char* argv[] = {"bwsurvey", "--quick", "--pmbw.max-size", "8M", "--pmbw.reps", "5", "--pmbw.quadratic"};
  const run::CommandLine given = run::parse_command_line(7, argv, [](const std::string&) { return std::string(); });
  const std::string ini = given.config.to_ini(run::invocation_only_keys());
  expect_all_in(ini, {"\nquick = on\n", "\n[pmbw]\n", "\nmax-size = 8M\n", "\nreps = 5\n", "\nquadratic = on\n",
                      "\n# default: min-bytes = 1K\n", "\n# default: min-time = 1.0\n"});
  EXPECT_EQ(ini.find("\nmin-time = "), std::string::npos) << ini;

  const char* replay[] = {"bwsurvey", "--config", "c.ini"};
  const run::CommandLine again = run::parse_command_line(3, replay, [&](const std::string&) { return ini; });
  for (const run::CommandLine* cl : {&given, &again}) {
    const pmbw::PmbwOptions o = pmbw::pmbw_schema().read(cl->config, cl->config.flag("quick"));
    EXPECT_EQ(o.max_bytes, std::optional<std::uint64_t>(8388608));
    EXPECT_EQ(o.reps, 5);
    EXPECT_TRUE(o.quadratic);
    EXPECT_DOUBLE_EQ(o.min_time_seconds, 0.02);  // --quick, left at its default
    EXPECT_EQ(o.min_bytes, 1024u);
    EXPECT_FALSE(o.min_bytes_given);
  }
  EXPECT_EQ(again.config.to_ini(run::invocation_only_keys()), ini);
}
