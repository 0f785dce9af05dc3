#include "backends/LegacyOclAliases.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "bs/BsPlan.hpp"
#include "core/BackendList.hpp"
#include "core/Errors.hpp"
#include "core/OptionText.hpp"
#include "ocl/OclRuntime.hpp"
#include "stream/StreamPlan.hpp"

namespace bws::backends {
namespace {

struct OptionAlias {
  const char* alias;
  const char* target;
  const char* alias_default;  // the old option's default (its own, before it was an alias)
};
constexpr OptionAlias kAliases[] = {{"ocl.elements", stream::kElementsOption, "auto"},
                                    {"ocl.ntimes", stream::kNtimesOption, "20"},
                                    {"ocl.type", stream::kTypeOption, "double"}};

bool given(const Config& config, const char* key) { return config.has(key) && !config.is_default(key); }

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& i : items) text += (text.empty() ? "" : ",") + i;
  return text;
}

// Adds ocl to a benchmark's backend list (only ocl when the benchmark was
// not named itself).
void add_ocl_backend(Config& config, const char* option, bool benchmark_named) {
  if (!benchmark_named && !given(config, option)) {
    config.set(option, "ocl");
    return;
  }
  std::vector<std::string> list = split_comma_list(option_text(config, option, kBackendDefault));
  if (std::find(list.begin(), list.end(), "ocl") == list.end()) list.emplace_back("ocl");
  config.set(option, joined(list));
}

}  // namespace

void add_legacy_ocl_options(boost::program_options::options_description& desc) {
  add_text_option(desc, kOclTestsOption, kOclTestsDefault,
                  "alias: what --tests ocl runs, a comma list of stream (--stream.backend ocl), bs (--bs.backend "
                  "ocl) and beff (--beff.path device)");
  for (const OptionAlias& a : kAliases) {
    const std::string help = std::string("alias of --") + a.target + " (the old OpenCL spelling)";
    add_text_option(desc, a.alias, a.alias_default, help.c_str());  // Boost copies the text
  }
}

void resolve_legacy_ocl_aliases(Config& config) {
  for (const OptionAlias& a : kAliases) {
    if (!given(config, a.alias)) continue;
    const std::string value = config.get(a.alias);
    if (given(config, a.target) && trim_text(config.get(a.target)) != trim_text(value))
      throw UsageError(option_flag(a.alias) + " " + quoted_input(value) + " and " + option_flag(a.target) + " " +
                       quoted_input(config.get(a.target)) + " disagree: " + option_flag(a.alias) +
                       " is an alias of " + option_flag(a.target) + "; give one of them");
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
  for (const std::string& item : split_comma_list(option_text(config, kOclTestsOption, kOclTestsDefault))) {
    const std::string part = lower_text(trim_text(item));
    if (part == "stream" || part == "bs") {
      add_ocl_backend(config, part == "stream" ? stream::kBackendOption : "bs.backend", named(part.c_str()));
    } else if (part == "beff") {
      if (!named("beff")) config.set("beff.path", "device");  // named too: b_eff runs once, on --beff.path
    } else {
      throw UsageError(option_flag(kOclTestsOption) + ": unknown part " + quoted_input(item) +
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
