// The schema's list of text values (OptionType::TextList): a comma list in
// a Config or an INI file, an option given again on a bwreport command line
// (bwreport history changes --node a --node b), none of its values empty.
// Expected values are written out by hand.
#include <gtest/gtest.h>

#include <boost/program_options/options_description.hpp>

#include "TestSupport.hpp"
#include "core/Errors.hpp"
#include "core/OptionSchema.hpp"
#include "report/CommandOptions.hpp"

using namespace bws;

namespace {

struct HostOptions : TypedOptions {
  std::vector<std::string> hosts;
};

const OptionSchema<HostOptions>& schema() {
  static const OptionSchema<HostOptions> s(
      {bind_option(text_list_option("t.node", "host", "t: only these hosts"), &HostOptions::hosts)});
  return s;
}

std::vector<std::string> hosts_in(const Config& config) { return schema().read(config, false).hosts; }

Config given(const std::string& text) {
  Config config;
  config.set("t.node", text);
  return config;
}

// The options of a bwreport command line, read as the command reads them.
HostOptions from_command_line(const report::CommandArgs& args) {
  boost::program_options::options_description desc("Options");
  report::add_command_options(desc, schema().list());
  return report::read_command_options("t", schema(), report::parse_command("t", args, desc, 0, 0));
}

}  // namespace

TEST(OptionTextList, LeftOutItIsEmptyGivenItIsTheTrimmedValuesInOrder) {
  EXPECT_TRUE(hosts_in(Config()).empty());
  EXPECT_EQ(hosts_in(given("n2")), (std::vector<std::string>{"n2"}));
  EXPECT_EQ(hosts_in(given(" n2 , n1,n2")), (std::vector<std::string>{"n2", "n1", "n2"}));
  const HostOptions o = schema().read(given("n1"), false);
  EXPECT_EQ(o.flag(&HostOptions::hosts), "--t.node");
  EXPECT_FALSE(o.defaulted(&HostOptions::hosts));
  EXPECT_TRUE(schema().read(Config(), false).defaulted(&HostOptions::hosts));
}

TEST(OptionTextList, AnEmptyValueIsRefusedNamingTheOptionAndTheRange) {
  EXPECT_EQ(schema().list().spec("t.node").allowed(), "a comma list of hosts");
  EXPECT_EQ(test::usage_error_of([] { hosts_in(given("")); }),
            "--t.node: '' is an empty host list; allowed: a comma list of hosts");
  EXPECT_EQ(test::usage_error_of([] { hosts_in(given("n1,,n2")); }),
            "--t.node: 'n1,,n2' has an empty entry; allowed: a comma list of hosts");
  EXPECT_EQ(test::usage_error_of([] { hosts_in(given(" , ")); }),
            "--t.node: ',' is an empty host list; allowed: a comma list of hosts");
}

TEST(OptionTextList, OnABwreportCommandLineTheOptionMayBeGivenAgain) {
  EXPECT_TRUE(from_command_line({}).hosts.empty());
  EXPECT_EQ(from_command_line({"--t.node", "n3", "--t.node", "n1"}).hosts, (std::vector<std::string>{"n3", "n1"}));
  EXPECT_EQ(from_command_line({"--t.node", "n3,n4"}).hosts, (std::vector<std::string>{"n3", "n4"}));
  EXPECT_EQ(test::usage_error_of([] { from_command_line({"--t.node", ""}); }),
            "bwreport t: --t.node: '' is an empty host list; allowed: a comma list of hosts");
  EXPECT_EQ(test::usage_error_of([] { from_command_line({"--t.node", "n1", "--t.node", " "}); }),
            "bwreport t: --t.node: 'n1,' has an empty entry; allowed: a comma list of hosts");
}
