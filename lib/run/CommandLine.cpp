#include "run/CommandLine.hpp"

#include <cstdlib>
#include <map>
#include <optional>
#include <string_view>

#include <boost/program_options/parsers.hpp>
#include <boost/program_options/variables_map.hpp>

#include "catalog/FlagOptions.hpp"
#include "catalog/Registry.hpp"
#include "core/Errors.hpp"
#include "core/IniFile.hpp"
#include "core/OptionAliases.hpp"
#include "core/OptionSchema.hpp"
#include "core/OptionText.hpp"
#include "backends/Backends.hpp"
#include "backends/LegacyOclAliases.hpp"
#include "model/NodeFlags.hpp"
#include "run/SurveySettings.hpp"

namespace po = boost::program_options;

namespace bws::run {
namespace {

// Boost's messages say "the option '--x' ..."; ours start with the option
// where there is one, and always fit on one line.
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n') c = ' ';
  return s;
}

// --force, --quick, --fail-on-flags: under the one rule of every boolean
// option (on|off, also true/false, yes/no, 1/0; the option alone means on).
bool is_survey_switch(const std::string& name) {
  for (const OptionSpec& s : survey_option_schema().list().specs())
    if (s.name == name && s.type == OptionType::Flag) return true;
  return false;
}

}  // namespace

bool asks_for_version(int argc, const char* const argv[]) {
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]) == "--version") return true;
  return false;
}

bool asks_for_help_only(int argc, const char* const argv[]) {
  return argc == 2 && (std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h");
}

po::options_description survey_options() {
  po::options_description all("bwsurvey options (every option is also a key of the --config INI file)");
  po::options_description general("General");
  general.add_options()("help,h", po::bool_switch(), "print this help and exit")(
      "version", po::bool_switch(),
      "print the version, commit, build type and options, OpenCL on/off and the kernels' instruction sets, "
      "and exit (before MPI starts)")(
      "print-config", po::bool_switch(), "print the effective configuration as INI text and exit")(
      "config", po::value<std::string>(), "INI file with options (keys as below; [stream] sections prefix keys)");
  // --help and --print-config are actions, not settings: plain switches.
  survey_option_schema().add_to(general);
  all.add(general);
  po::options_description flags("Node flags (slow nodes in /flags and in the summary)");
  catalog::flag_option_schema(catalog::all_node_metrics()).add_to(flags);
  all.add(flags);
  for (const auto& e : catalog::benchmark_registry()) {
    po::options_description group(e.name + ": " + e.description());
    e.add_options(group);
    all.add(group);
  }
  backends::add_backend_options(all);
  po::options_description aliases("Aliases (the old spellings of the OpenCL options)");
  backends::add_legacy_ocl_options(aliases);
  all.add(aliases);
  return all;
}

const std::set<std::string, std::less<>>& invocation_only_keys() {
  static const std::set<std::string, std::less<>> keys = {"help",  "version", "print-config", "config",
                                                          "force", "resume",  "phase-timeout"};
  return keys;
}

namespace {

std::string text_of(const po::variable_value& v) {
  if (v.value().type() == typeid(bool)) return v.as<bool>() ? "true" : "false";
  return v.as<std::string>();
}

// Same meaning: equal text, or equal truth values ("on" and "true").
bool same_setting(const std::string& a, const std::string& b) {
  if (a == b) return true;
  const std::optional<bool> truth_a = read_truth(a);
  return truth_a.has_value() && truth_a == read_truth(b);
}

// The stored configuration of the file --resume names, under the options
// given on the command line, which must agree with it. Returns the values
// the file records as left at their defaults ("# default: " lines, see
// Config::to_ini): they stay defaults, with the stored value, so a plan that
// reads whether an option was given (--quick's shorter sweeps) is the same.
std::map<std::string, std::string> store_resumed_configuration(const po::options_description& desc,
                                                               po::variables_map& vm, const std::string& path,
                                                               const ResumeConfigReader& read_resume_config) {
  if (vm.count("config") && !vm["config"].as<std::string>().empty())
    throw UsageError("--resume: the configuration is the one stored in '" + path + "'; leave out --config");
  if (vm.count("out") && !vm["out"].defaulted())
    throw UsageError("--resume: the results go to '" + path + "' itself; leave out --out");
  if (!read_resume_config) throw UsageError("--resume: not supported here");
  const std::string text = read_resume_config(path);
  po::parsed_options parsed(&desc);
  for (const IniEntry& entry : parse_ini(text, path + " /config")) {
    const po::option_description* known = desc.find_nothrow(entry.key, false);
    if (!known)
      throw UsageError("--resume: '" + path + "' was written with option '" + entry.key +
                       "', which this bwsurvey does not have");
    if (entry.key == "out") continue;
    if (vm.count(entry.key) && !vm[entry.key].defaulted() && !same_setting(text_of(vm[entry.key]), entry.value))
      throw UsageError("--resume: --" + entry.key + " is '" + text_of(vm[entry.key]) + "' here but '" + entry.value +
                       "' in '" + path + "'; a resumed survey keeps its configuration (leave the option out)");
    po::option opt(entry.key, {entry.value});
    opt.original_tokens = {entry.key, entry.value};
    parsed.options.push_back(opt);
  }
  std::map<std::string, std::string> stored_defaults;
  for (const IniEntry& entry : parse_ini(default_lines_of(text), path + " /config")) {
    if (!desc.find_nothrow(entry.key, false))
      throw UsageError("--resume: '" + path + "' was written with option '" + entry.key +
                       "', which this bwsurvey does not have");
    if (entry.key == "out") continue;
    if (vm.count(entry.key) && !vm[entry.key].defaulted())
      throw UsageError("--resume: --" + entry.key + " was left at its default in '" + path +
                       "'; a resumed survey keeps its configuration (leave the option out)");
    stored_defaults[entry.key] = entry.value;
  }
  // Values given on the command line stay (they agree); a defaulted value,
  // a switch left off included, gives way to the file's.
  try {
    po::store(parsed, vm);
  } catch (const po::error& e) {
    throw UsageError("--resume '" + path + "': " + one_line(e.what()));
  }
  vm.at("out") = po::variable_value(boost::any(path), false);
  return stored_defaults;
}

// Whether the option's default is empty text (or it has none): an empty
// value in an INI file then means the default (--print-config writes
// "sizes = " for them, and reads back).
bool default_is_empty(const po::option_description& option) {
  boost::any value;
  if (!option.semantic()->apply_default(value)) return true;
  const std::string* text = boost::any_cast<std::string>(&value);
  return text && text->empty();
}

// What Boost accepts but bwsurvey refuses on the command line: a word that
// belongs to no option (it would be ignored: "--quick false" ran quick,
// "--out /a b/x.h5" wrote /a), and an empty value ("--beff.sizes ''", most
// often a shell variable that was not set, which would silently mean the
// default).
void refuse_stray_and_empty_values(const po::options_description& desc, const po::parsed_options& parsed) {
  for (std::size_t i = 0; i < parsed.options.size(); ++i) {
    const po::option& o = parsed.options[i];
    if (o.string_key.empty()) {
      std::string after;
      if (i > 0 && !parsed.options[i - 1].string_key.empty()) after = " (after --" + parsed.options[i - 1].string_key + ")";
      throw UsageError("unexpected argument " + quoted_input(o.original_tokens.empty() ? std::string() : o.original_tokens[0]) +
                       after + "; bwsurvey takes only --options, each with at most one value (a switch such as "
                       "--quick takes none; quote a value that has spaces)");
    }
    // A survey switch followed by a word: Boost takes the word as its value,
    // but these were value-less switches, so "--quick false" is a switch and
    // a stray word ("--quick stream", a forgotten --tests). Their value goes
    // with '='. A benchmark's boolean keeps its old separate word
    // ("--ocl.single-kernel false", as documented before the one rule).
    const po::option_description* known = desc.find_nothrow(o.string_key, false);
    if (is_survey_switch(o.string_key) && o.original_tokens.size() > 1)
      throw UsageError("unexpected argument " + quoted_input(o.original_tokens.back()) + " (after --" + o.string_key +
                       "); a switch takes a value only with '=' (--" + o.string_key + "=off)");
    for (const std::string& value : o.value) {
      if (!trim_text(value).empty()) continue;
      std::string default_text = "see --help";
      boost::any default_value;
      if (known && known->semantic()->apply_default(default_value))
        if (const std::string* text = boost::any_cast<std::string>(&default_value))
          default_text = text->empty() ? "none" : quoted_input(*text);
      throw UsageError("--" + o.string_key + ": empty value; give a value, or leave the option out for its default (" +
                       default_text + ")");
    }
  }
}

// Stores the --config file's options under those of the command line
// (which stay) and adds its keys to `given_keys`.
void store_config_file(const po::options_description& desc, po::variables_map& vm, const std::string& path,
                       const ConfigReader& read_config, std::set<std::string, std::less<>>& given_keys) {
  const std::string text = read_config(path);
  po::parsed_options parsed(&desc);
  for (const IniEntry& entry : parse_ini(text, path)) {
    const po::option_description* known = desc.find_nothrow(entry.key, false);
    if (!known || (invocation_only_keys().count(entry.key) && entry.key != "force"))
      throw UsageError("--config " + quoted_input(path, kMaxQuotedPathChars) + " line " + std::to_string(entry.line) +
                       ": unknown option " + quoted_input(entry.key));
    if (trim_text(entry.value).empty() && !default_is_empty(*known))
      throw UsageError("--config " + quoted_input(path, kMaxQuotedPathChars) + " line " + std::to_string(entry.line) +
                       ": " + entry.key + " has an empty value; give a value, or leave the key out for its default");
    po::option opt(entry.key, {entry.value});
    opt.original_tokens = {entry.key, entry.value};
    parsed.options.push_back(opt);
    given_keys.insert(entry.key);
  }
  try {
    po::store(parsed, vm);  // values already given on the command line stay
  } catch (const po::error& e) {
    throw UsageError("--config '" + path + "': " + one_line(e.what()));
  }
}

}  // namespace

CommandLine parse_command_line(int argc, const char* const argv[], const ConfigReader& read_config,
                               const ResumeConfigReader& read_resume_config) {
  const po::options_description desc = survey_options();
  po::variables_map vm;
  CommandLine out;
  for (int i = 0; i < argc; ++i) out.text += (i ? " " : "") + std::string(argv[i]);

  try {
    const po::parsed_options given = po::command_line_parser(argc, argv).options(desc).run();
    refuse_stray_and_empty_values(desc, given);
    po::store(given, vm);
  } catch (const po::unknown_option& e) {
    throw UsageError("unknown option " + quoted_input(e.get_option_name()) + "; see --help for the options");
  } catch (const po::too_many_positional_options_error&) {
    throw UsageError("unexpected argument; bwsurvey takes only options (see --help)");
  } catch (const po::error& e) {
    throw UsageError(one_line(e.what()));
  }

  // What the user gave (the command line, then the --config file), not the
  // stored /config of --resume: only these print deprecation lines.
  std::set<std::string, std::less<>> given_keys;
  for (const auto& [key, value] : vm)
    if (!value.defaulted()) given_keys.insert(key);
  const bool resuming = vm.count("resume") && !vm["resume"].as<std::string>().empty();
  std::map<std::string, std::string> stored_defaults;
  if (resuming)
    stored_defaults = store_resumed_configuration(desc, vm, vm["resume"].as<std::string>(), read_resume_config);
  if (!resuming && vm.count("config") && !vm["config"].as<std::string>().empty())
    store_config_file(desc, vm, vm["config"].as<std::string>(), read_config, given_keys);
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
    if (v.defaulted()) {
      defaulted.insert(key);
      if (const auto stored = stored_defaults.find(key); stored != stored_defaults.end()) values[key] = stored->second;
    }
  }
  // A stored default under an old name (a file written before a rename):
  // kept as a default under that name, which the option's schema reads.
  for (const auto& [key, value] : stored_defaults)
    if (values.find(key) == values.end()) {
      values[key] = value;
      defaulted.insert(key);
    }
  out.config = Config(std::move(values), std::move(defaulted));
  out.deprecations = alias_deprecations(desc, given_keys);
  for (Deprecation& d : backends::legacy_ocl_deprecations(out.config, given_keys))
    out.deprecations.push_back(std::move(d));
  backends::resolve_legacy_ocl_aliases(out.config);
  out.help = out.config.flag("help");
  out.version = out.config.flag("version");
  out.print_config = out.config.flag("print-config");
  return out;
}

}  // namespace bws::run
