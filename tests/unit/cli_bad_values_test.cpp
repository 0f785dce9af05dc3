// Every option's bad values, files that are no files, values that match
// nothing, stray words (on 1 and 2 ranks of the real binary), and every
// option times every bad value through the setup in process.
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cctype>
#include <map>
#include <vector>

#include <boost/program_options/options_description.hpp>

#include "TestPrograms.hpp"
#include "CliTestSupport.hpp"

#include "catalog/Registry.hpp"
#include "core/Benchmark.hpp"
#include "core/CollectiveBenchmark.hpp"
#include "core/Errors.hpp"
#include "run/CommandLine.hpp"
#include "run/SurveySettings.hpp"
#include "topology/Topology.hpp"

namespace {

// A word for `sh -c`, in single quotes.
std::string shell_word(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The options of `bwsurvey --help` that take a value: name and default text
// (empty when none), and whether the help calls the value a file.
struct HelpOption {
  std::string name;
  std::string help;
  bool names_a_file = false;
};

std::vector<HelpOption> options_with_values(const std::string& help_text) {
  std::vector<HelpOption> options;
  std::istringstream in(help_text);
  std::string line;
  while (std::getline(in, line)) {
    // "  --stream.reps arg (=20)   STREAM: ..." and its continuation lines
    // (indented past the option column).
    if (line.rfind("  --", 0) == 0) {
      const std::size_t end = line.find(' ', 4);
      const std::string rest = end == std::string::npos ? "" : line.substr(end + 1);
      if (rest.rfind("arg", 0) == 0 || rest.rfind("[=arg", 0) == 0) {
        options.push_back({line.substr(4, end - 4), rest});
        continue;
      }
      options.push_back({"", ""});  // a switch: its help does not count
      continue;
    }
    if (!options.empty() && line.rfind("     ", 0) == 0) options.back().help += " " + line;
  }
  std::vector<HelpOption> with_values;
  for (HelpOption& o : options) {
    if (o.name.empty()) continue;
    std::string lower = o.help;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    o.names_a_file = lower.find("file") != std::string::npos;
    with_values.push_back(o);
  }
  return with_values;
}

// The benchmark an option belongs to ("bs" for --bs.points): its options
// are checked when --tests names it. Empty for the survey's own options.
std::string owning_test(const std::string& option) {
  if (option.find('.') == std::string::npos) return "";
  const std::string prefix = option.substr(0, option.find('.'));
  // Every catalog entry (a new one too), and ocl: the old --tests ocl, an alias.
  return bws::catalog::find_benchmark(prefix) || prefix == "ocl" ? prefix : "";
}

// The option a bad value's message names: an alias's message names the
// option it stands for (--ocl.elements is --stream.elements), or the option
// as typed where the command-line parser itself refuses it (an empty value).
std::string named_option(const std::string& option) {
  static const std::map<std::string, std::string> aliases = {
      {"ocl.elements", "stream.elements"}, {"ocl.ntimes", "stream.reps"}, {"ocl.type", "stream.type"}};
  const auto it = aliases.find(option);
  return "--" + (it == aliases.end() ? option : it->second);
}

}  // namespace

class CliBadValues : public CliErrors {
 protected:
  struct Case {
    std::string args;    // the command line, words already quoted for the shell
    std::string needle;  // what the one line must name
    int ranks = 1;       // > 1: under mpirun
    std::string or_needle = "";  // or this (an old name: the option as typed)
  };

  // Runs every case in its own folder, 16 at a time (each start of
  // bwsurvey is mostly MPI's start-up wait), then checks each: exit 2, one
  // line on stderr that names `needle`, nothing on stdout, no --out file.
  void expect_usage_errors(const std::vector<Case>& cases) {
    std::ostringstream script;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const fs::path d = dir_ / ("case" + std::to_string(i));
      fs::create_directories(d);
      const std::string launcher =
          cases[i].ranks > 1 ? "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + shell_word(bws::test::mpiexec_program()) +
                                   " -q -np " + std::to_string(cases[i].ranks) + " --oversubscribe "
                             : "";
      script << "(cd " << shell_word(d.string()) << " && " << launcher << shell_word(bws::test::bwsurvey_program()) << " "
             << cases[i].args << " --out s.h5 </dev/null >out.txt 2>err.txt; echo $? >rc.txt) &\n";
      if (i % 16 == 15) script << "wait\n";
    }
    script << "wait\n";
    std::ofstream(dir_ / "cases.sh") << script.str();
    ASSERT_EQ(std::system(("sh " + shell_word((dir_ / "cases.sh").string())).c_str()), 0);
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const fs::path d = dir_ / ("case" + std::to_string(i));
      const std::string what = cases[i].args + (cases[i].ranks > 1 ? " (" + std::to_string(cases[i].ranks) + " ranks)" : "");
      const std::string err = slurp(d / "err.txt");
      EXPECT_EQ(slurp(d / "rc.txt"), "2\n") << what << "\n" << err;
      EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << what << "\n" << err;
      EXPECT_TRUE(err.find(cases[i].needle) != std::string::npos ||
                  (!cases[i].or_needle.empty() && err.find(cases[i].or_needle) != std::string::npos))
          << what << "\n" << err;
      EXPECT_LE(err.size(), 700u) << what;
      EXPECT_EQ(slurp(d / "out.txt"), "") << what;
      EXPECT_FALSE(fs::exists(d / "s.h5")) << what;
    }
  }
};

// Every option of --help that takes a value (the files' aside), whatever it
// holds: overflow, negative, 20 digits, NaN, trailing junk, empty. New
// options are covered as --help lists them. Every option and every value
// goes through the real binary, but not every pair (each start is MPI's:
// ~0.1 s of CPU); CliBadValuesInProcess.OptionsTimesBadValues runs every
// pair through the same parse and plan.
TEST_F(CliBadValues, EveryOptionRefusesOverflowJunkAndEmptyValues) {
  const RunResult help = run("--help");
  ASSERT_EQ(help.exit_code, 0);
  const std::vector<HelpOption> options = options_with_values(help.out);
  std::vector<std::string> files;
  std::vector<Case> cases;
  const std::vector<std::string> values = {"1e400", "-1", "99999999999999999999", "nan", "12x", ""};
  std::size_t pick = 0;
  for (const HelpOption& o : options) {
    if (o.names_a_file) {
      files.push_back(o.name);
      continue;
    }
    const std::string test = owning_test(o.name);
#if !BWS_HAVE_OPENCL
    if (test == "ocl") continue;  // --tests ocl itself is the usage error here
#endif
    // One value per option, the next in turn: each value reaches about six options.
    cases.push_back({(test.empty() ? "" : "--tests " + test + " ") +
                        shell_word("--" + o.name + "=" + values[pick++ % values.size()]),
                    named_option(o.name), 1, "--" + o.name});
  }
  // The options that name files are the ones expected (each has its own test).
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"config", "memory.dmidecode", "out", "pmbw.stats", "reference", "resume"}));
  EXPECT_GE(cases.size(), 25u);
  expect_usage_errors(cases);
}

// The same on two ranks: one line in all, not one per rank.
TEST_F(CliBadValues, TwoRanksSayItOnce) {
  expect_usage_errors({{"--tests pmbw --pmbw.seed 99999999999999999999", "--pmbw.seed", 2},
                       {"--tests stream --stream.elements 1e400", "--stream.elements", 2},
                       {"--tests beff --beff.sizes ''", "--beff.sizes", 2},
                       {"--quick false", "'false'", 2}});
}

// A word that belongs to no option is refused, naming it (it used to be
// ignored: --quick false ran quick, --out /a b/x.h5 wrote /a).
TEST_F(CliBadValues, StrayArgumentsAreRefused) {
  expect_usage_errors({{"--quick false", "unexpected argument 'false' (after --quick)"},
                       {"--fail-on-flags off", "unexpected argument 'off'"},
                       {"--out a b/x.h5", "unexpected argument 'b/x.h5'"},
                       {"stream", "unexpected argument 'stream'"},
                       {"--tests stream -- extra", "unexpected argument 'extra'"}});
  EXPECT_FALSE(fs::exists(dir_ / "case2" / "a"));
}

// --config, --reference and --memory.dmidecode read regular files only: a
// FIFO would block forever, a device (this test's own, with the numbers of
// /dev/zero: no test touches the machine's /dev) never ends; a file above
// 16 MiB is a mistake.
TEST_F(CliBadValues, ConfigLikeFilesMustBeRegularFiles) {
  ASSERT_EQ(mkfifo((dir_ / "fifo.ini").c_str(), 0600), 0);
  {
    std::ofstream big(dir_ / "big.ini");
    const std::string line(1023, '#');
    for (int i = 0; i < 17 * 1024; ++i) big << line << "\n";
  }
  const std::string fifo = shell_word((dir_ / "fifo.ini").string()), big = shell_word((dir_ / "big.ini").string());
  std::vector<Case> cases = {{"--config " + fifo, "is a FIFO; allowed: a regular file"},
                             {"--config " + big, "is larger than 16 MiB"},
                             {"--tests stream --reference " + fifo, "--reference"},
                             {"--tests stream --memory.dmidecode " + fifo, "--memory.dmidecode"},
                             {"--config " + fifo, "is a FIFO", 2}};
  const std::string zero = (dir_ / "zero").string();
  if (::mknod(zero.c_str(), S_IFCHR | 0666, ::makedev(1, 5)) == 0) {  // root only
    const std::string device = shell_word(zero);
    cases.push_back({"--config " + device, "--config: '" + zero + "' is a character device"});
    cases.push_back({"--tests stream --reference " + device, "--reference: '" + zero + "' is a character device"});
    cases.push_back({"--tests stream --memory.dmidecode " + device, "--memory.dmidecode"});
    cases.push_back({"--tests stream --reference " + device, "--reference", 2});
  }
  expect_usage_errors(cases);
  EXPECT_TRUE(fs::is_fifo(dir_ / "fifo.ini"));
}

// A reference line given twice, or a floor or reference group that no run
// can produce, is refused where it is given.
TEST_F(CliBadValues, ReferencesAndFloorsThatMatchNothing) {
  std::ofstream(dir_ / "twice.ini") << "[n*]\nstream.triad = 30, -0.1, none, GB/s\n# again\n"
                                    << "stream.triad = 31, -0.1, none, GB/s\n";
  std::ofstream(dir_ / "group.ini") << "stream.triad[quad] = 30, -0.1, none, GB/s\n";
  std::ofstream(dir_ / "arity.ini") << "bs.wmax[BS6] = 30, -0.1, none, GB/s\n";
  const auto path = [&](const char* name) { return shell_word((dir_ / name).string()); };
  expect_usage_errors(
      {{"--tests stream --reference " + path("twice.ini"), "line 4: 'stream.triad' for hosts 'n*' is given twice (line 2"},
       {"--tests stream --reference " + path("group.ini"), "line 1: metric 'stream.triad[quad]' matches no group"},
       {"--tests stream --reference " + path("arity.ini"), "line 1: metric 'bs.wmax[BS6]' matches no group"},
       {"--tests stream --flags.floor stream.triad[quad]=1e9", "--flags.floor: metric 'stream.triad[quad]' matches no group"},
       {"--tests stream --flags.floor beff.per_rank[x]=1e9", "--flags.floor: metric 'beff.per_rank[x]' has no groups"},
       {"--tests stream --flags.floor pmbw.scan_ram=1e9", "--flags.floor: metric 'pmbw.scan_ram' is not measured by --tests 'stream'"},
       {"--tests stream --flags.floor stream.triad=1e9,stream.triad=2e9", "--flags.floor: metric 'stream.triad' is given twice"},
       {"--tests stream --flags.floor stream.triad=-1", "--flags.floor: 'stream.triad=-1' is out of range"},
       {"--tests stream --reference " + path("twice.ini"), "is given twice", 2}});
}

// An input of kilobytes is quoted shortened, on one line.
TEST_F(CliBadValues, HugeOrMultiLineValuesAreNotEchoed) {
  const std::string huge(5000, '7');
  std::ofstream(dir_ / "long.ini") << "[stream]\nntimes = " << std::string(3000, 'x') << "\n";
  expect_usage_errors({{"--tests stream --stream.reps " + huge, "--stream.reps: '777"},
                       {"--tests stream --stream.type " + shell_word("double\nfloat\nquad"), "--stream.type"},
                       {"--tests bogus" + huge, "--tests"},
                       {"--config " + shell_word((dir_ / "long.ini").string()), "--stream.ntimes"}});
}

namespace {

// bwsurvey's setup without MPI: parse, validate the survey's settings, plan
// every test as the coordinator does. The UsageError's
// message; "" when accepted; "NOT A UsageError: ..." for anything else.
std::string setup_error(const std::vector<std::string>& args) {
  std::vector<const char*> argv = {"bwsurvey"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  try {
    using namespace bws::run;
using namespace bws::catalog;
    const CommandLine cl = parse_command_line(static_cast<int>(argv.size()), argv.data(), [](const std::string&) {
      return std::string();
    });
    if (requested_listing(cl.config)) return "";  // --ocl.list, --pmbw.routines list: a listing, nothing run
    const SurveySettings s = parse_survey_settings(cl.config);
    static const bws::topo::Topology topology =
        bws::topo::Topology::synthetic("numa:1(memory=24GiB) pack:1 l3:1(size=32MiB) core:2 pu:1");
    const bws::NodeContext node{topology, "node1", 0, 1, 0, 2, s.quick, bws::MachineSpeed{}, 0};
    const bws::RankLayout ranks{0, 1, "node1", {0}, 1, topology.info().node_memory_bytes, 1, s.quick, bws::MachineSpeed{}, 0};
    auto plan = [&](const bws::CatalogEntry* e, const bws::Config& config) {
      if (e->collective())
        e->make_collective()->plan(config, ranks);
      else
        e->make_benchmark()->plan(config, node);
    };
    for (const bws::CatalogEntry* e : s.tests) plan(e, cl.config);
    return "";
  } catch (const bws::UsageError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("NOT A UsageError: ") + e.what();
  }
}

}  // namespace

// Every option that takes a value (as --help lists them: the same
// description) times every bad value, through bwsurvey's parse and plan:
// a UsageError, one line, naming the option, of bounded length.
TEST(CliBadValuesInProcess, OptionsTimesBadValues) {
  const std::vector<std::string> values = {"1e400", "-1",  "99999999999999999999", "nan", "12x", "",
                                           "inf",   "0x10", "1e",                   "+-1", "1e-400x"};
  int options = 0;
  const auto description = bws::run::survey_options();
  for (const auto& option : description.options()) {
    const std::string name = option->long_name();
    if (option->semantic()->max_tokens() == 0) continue;  // a switch
    std::string lower = option->description();
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower.find("file") != std::string::npos) continue;  // names a file: tested on its own
    const std::string test = owning_test(name);
#if !BWS_HAVE_OPENCL
    if (test == "ocl") continue;
#endif
    ++options;
    for (const std::string& value : values) {
      std::vector<std::string> args;
      if (!test.empty()) args = {"--tests", test};
      args.push_back("--" + name + "=" + value);
      const std::string error = setup_error(args);
      const std::string what = "--" + name + "=" + value + " -> " + error;
      EXPECT_EQ(error.find("NOT A UsageError"), std::string::npos) << what;
      EXPECT_FALSE(error.empty()) << what << "(accepted)";
      EXPECT_TRUE(error.find("--" + name) != std::string::npos || error.find(named_option(name)) != std::string::npos)
          << what;
      EXPECT_EQ(error.find('\n'), std::string::npos) << what;
      EXPECT_LE(error.size(), bws::kMaxErrorMessageChars) << what;
    }
  }
  EXPECT_GE(options, 25);
}