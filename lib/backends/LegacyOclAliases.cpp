#include "backends/LegacyOclAliases.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "bs/BsPlan.hpp"
#include "core/BackendList.hpp"
#include "core/Errors.hpp"
#include "core/OptionAliases.hpp"
#include "core/OptionSchema.hpp"
#include "core/OptionText.hpp"
#include "ocl/OclRuntime.hpp"
#include "stream/StreamPlan.hpp"

namespace bws::backends {
namespace {

// The option --tests ocl selects its parts by (not a benchmark's option),
// declared once.
const OptionSpec& ocl_tests_option() {
  static const OptionSpec spec =
      text_option("ocl.tests", "stream,bs,beff",
                  "alias: what --tests ocl runs, a comma list of stream (--stream.backend ocl), bs (--bs.backend "
                  "ocl) and beff (--beff.path device)");
  return spec;
}

struct OptionAlias {
  const char* alias;
  std::string target;         // the STREAM option, by its declaration
  const char* alias_default;  // the old option's default (its own, before it was an alias)
};

const std::vector<OptionAlias>& aliases() {
  using stream::StreamOptions;
  static const std::vector<OptionAlias> list = {
      {"ocl.elements", stream::stream_schema().name_of(&StreamOptions::elements), "auto"},
      {"ocl.ntimes", stream::stream_schema().name_of(&StreamOptions::reps), "20"},
      {"ocl.type", stream::stream_schema().name_of(&StreamOptions::types), "double"}};
  return list;
}

// A benchmark's backend list: its option's name as declared.
std::string backend_option(const std::string& benchmark) {
  if (benchmark == "stream") return stream::stream_schema().name_of(&stream::StreamOptions::backends);
  return bs::bs_schema().name_of(&bs::BsOptions::backends);
}

bool given(const Config& config, const std::string& key) { return config.has(key) && !config.is_default(key); }

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& i : items) text += (text.empty() ? "" : ",") + i;
  return text;
}

// Adds ocl to a benchmark's backend list (only ocl when the benchmark was
// not named itself).
void add_ocl_backend(Config& config, const std::string& option, bool benchmark_named) {
  if (!benchmark_named && !given(config, option)) {
    config.set(option, "ocl");
    return;
  }
  std::vector<std::string> list = split_comma_list(option_text(config, option.c_str(), kBackendDefault));
  if (std::find(list.begin(), list.end(), "ocl") == list.end()) list.emplace_back("ocl");
  config.set(option, joined(list));
}

}  // namespace

void add_legacy_ocl_options(boost::program_options::options_description& desc) {
  const OptionSpec& tests = ocl_tests_option();
  add_text_option(desc, tests.name.c_str(), tests.default_text.c_str(), tests.help.c_str());
  for (const OptionAlias& a : aliases())
    add_alias_option(desc, a.alias, a.target, "alias of --" + a.target + " (the old OpenCL spelling)", a.alias_default);
}

std::vector<Deprecation> legacy_ocl_deprecations(const Config& config,
                                                 const std::set<std::string, std::less<>>& given_keys) {
  std::vector<Deprecation> out;
  const OptionSpec& parts = ocl_tests_option();
  std::string use;  // what the parts --ocl.tests names are today (an unknown part is refused later)
  for (const std::string& item : split_comma_list(option_text(config, parts.name.c_str(), parts.default_text.c_str()))) {
    const std::string part = lower_text(trim_text(item));
    const std::string today =
        part == "stream" || part == "bs" ? option_flag(backend_option(part).c_str()) + " ocl"
        : part == "beff"                 ? std::string("--beff.path device")
                                         : std::string();
    if (!today.empty() && use.find(today) == std::string::npos) use += (use.empty() ? "" : ", ") + today;
  }
  if (given_keys.count("tests") && config.has("tests")) {
    const std::vector<std::string> tests = split_comma_list(config.get("tests"));
    if (std::any_of(tests.begin(), tests.end(), [](const std::string& t) { return lower_text(trim_text(t)) == "ocl"; }))
      out.push_back({"--tests ocl", use});
  }
  if (given_keys.count(parts.name)) out.push_back({option_flag(parts.name.c_str()), use});
  return out;
}

void resolve_legacy_ocl_aliases(Config& config) {
  for (const OptionAlias& a : aliases()) {
    if (!given(config, a.alias)) continue;
    const std::string value = config.get(a.alias);
    if (given(config, a.target) && trim_text(config.get(a.target)) != trim_text(value))
      throw UsageError(option_flag(a.alias) + " " + quoted_input(value) + " and " + option_flag(a.target.c_str()) + " " +
                       quoted_input(config.get(a.target)) + " disagree: " + option_flag(a.alias) +
                       " is an alias of " + option_flag(a.target.c_str()) + "; give one of them");
    config.set(a.target, value);
  }
  if (!config.has("tests")) return;
  std::vector<std::string> tests = split_comma_list(config.get("tests"));
  const auto ocl = std::find_if(tests.begin(), tests.end(), [](const std::string& t) { return lower_text(trim_text(t)) == "ocl"; });
  if (ocl == tests.end()) return;
  const auto position = ocl - tests.begin();
  tests.erase(ocl);
  const auto named = [&](const char* name) { return std::find(tests.begin(), tests.end(), name) != tests.end(); };
  std::vector<std::string> added;
  const OptionSpec& parts = ocl_tests_option();
  for (const std::string& item : split_comma_list(option_text(config, parts.name.c_str(), parts.default_text.c_str()))) {
    const std::string part = lower_text(trim_text(item));
    if (part == "stream" || part == "bs") {
      add_ocl_backend(config, backend_option(part), named(part.c_str()));
    } else if (part == "beff") {
      if (!named("beff")) config.set("beff.path", "device");  // named too: b_eff runs once, on --beff.path
    } else {
      throw UsageError(option_flag(parts.name.c_str()) + ": unknown part " + quoted_input(item) +
                       "; allowed: a comma list of stream, bs, beff");
    }
    if (!named(part.c_str()) && std::find(added.begin(), added.end(), part) == added.end()) added.push_back(part);
  }
  // Without OpenCL the alias is refused as the option the user typed.
  if (!ocl::ocl_compiled_in()) ocl::ocl_platforms("--tests ocl");
  tests.insert(tests.begin() + position, added.begin(), added.end());
  config.set("tests", joined(tests));
}

}  // namespace bws::backends
