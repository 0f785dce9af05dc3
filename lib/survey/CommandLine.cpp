#include "survey/CommandLine.hpp"

#include <boost/program_options/parsers.hpp>
#include <boost/program_options/variables_map.hpp>

#include "core/Errors.hpp"
#include "survey/IniFile.hpp"
#include "survey/Registry.hpp"

namespace po = boost::program_options;

namespace bws::survey {
namespace {

std::string default_tests() {
  std::string list;
  for (const auto& e : benchmark_registry())
    if (e.in_default_set) list += (list.empty() ? "" : ",") + e.name;
  return list;
}

// Boost's messages say "the option '--x' ..."; ours start with the option
// where there is one, and always fit on one line.
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n') c = ' ';
  return s;
}

}  // namespace

po::options_description survey_options() {
  static const std::string tests_default = default_tests();
  static std::string tests_help;
  tests_help = "comma-separated tests to run; available: ";
  for (const auto& e : benchmark_registry()) tests_help += e.name + " ";

  po::options_description all("bwsurvey options (every option is also a key of the --config INI file)");
  po::options_description general("General");
  general.add_options()("help,h", po::bool_switch(), "print this help and exit")(
      "print-config", po::bool_switch(), "print the effective configuration as INI text and exit")(
      "config", po::value<std::string>(), "INI file with options (keys as below; [stream] sections prefix keys)")(
      "force", po::bool_switch(), "overwrite --out when it exists")(
      "quick", po::bool_switch(), "shortest meaningful run (smaller sizes, fewer repetitions)");
  add_text_option(general, "tests", tests_default.c_str(), tests_help.c_str());
  add_text_option(general, "out", "survey.h5", "HDF5 result file (path; must not exist unless --force)");
  add_text_option(general, "threads", "auto",
                  "worker threads per rank, one per core: 1..cores of the rank's cpuset; auto = all of them");
  add_text_option(general, "bind", "compact",
                  "thread placement over the rank's cores: compact (fill cores in order), spread (even over "
                  "packages and NUMA nodes), none (unbound)");
  all.add(general);
  for (const auto& e : benchmark_registry()) {
    po::options_description group(e.name + ": " + e.description());
    e.add_options(group);
    all.add(group);
  }
  return all;
}

const std::set<std::string, std::less<>>& invocation_only_keys() {
  static const std::set<std::string, std::less<>> keys = {"help", "print-config", "config", "force"};
  return keys;
}

CommandLine parse_command_line(int argc, const char* const argv[], const ConfigReader& read_config) {
  const po::options_description desc = survey_options();
  po::variables_map vm;
  CommandLine out;
  for (int i = 0; i < argc; ++i) out.text += (i ? " " : "") + std::string(argv[i]);

  try {
    po::store(po::command_line_parser(argc, argv).options(desc).run(), vm);
  } catch (const po::unknown_option& e) {
    throw UsageError("unknown option '" + e.get_option_name() + "'; see --help for the options");
  } catch (const po::too_many_positional_options_error&) {
    throw UsageError("unexpected argument; bwsurvey takes only options (see --help)");
  } catch (const po::error& e) {
    throw UsageError(one_line(e.what()));
  }

  if (vm.count("config") && !vm["config"].as<std::string>().empty()) {
    const std::string path = vm["config"].as<std::string>();
    const std::string text = read_config(path);
    po::parsed_options parsed(&desc);
    for (const IniEntry& entry : parse_ini(text, path)) {
      const po::option_description* known = desc.find_nothrow(entry.key, false);
      if (!known || (invocation_only_keys().count(entry.key) && entry.key != "force"))
        throw UsageError("--config '" + path + "' line " + std::to_string(entry.line) + ": unknown option '" +
                         entry.key + "'");
      po::option opt(entry.key, {entry.value});
      opt.original_tokens = {entry.key, entry.value};
      parsed.options.push_back(opt);
    }
    try {
      po::store(parsed, vm);  // values already given on the command line stay
    } catch (const po::error& e) {
      throw UsageError("--config '" + path + "': " + one_line(e.what()));
    }
  }
  po::notify(vm);

  std::map<std::string, std::string, std::less<>> values;
  std::set<std::string, std::less<>> defaulted;
  for (const auto& option : desc.options()) {
    const std::string& key = option->long_name();
    if (!vm.count(key)) continue;
    const po::variable_value& v = vm[key];
    if (v.value().type() == typeid(bool))
      values[key] = v.as<bool>() ? "true" : "false";
    else
      values[key] = v.as<std::string>();
    if (v.defaulted()) defaulted.insert(key);
  }
  out.config = Config(std::move(values), std::move(defaulted));
  out.help = out.config.flag("help");
  out.print_config = out.config.flag("print-config");
  return out;
}

}  // namespace bws::survey
