#include "run/TestHooks.hpp"

#include <climits>
#include <cstdlib>
#include <string_view>

#include "core/OptionText.hpp"

#ifndef BWS_TEST_HOOKS
#define BWS_TEST_HOOKS 0
#endif

namespace bws::run {
namespace {

bool parse_int(const std::string& text, int& out) {
  std::uint64_t v = 0;
  if (read_whole_number(text, v) != NumberRead::Ok || v > INT_MAX) return false;
  out = static_cast<int>(v);
  return true;
}

}  // namespace

const std::vector<std::string>& test_hook_variables() {
  static const std::vector<std::string> names = {"BWSURVEY_INJECT_FAULT", "BWSURVEY_SLOW_HOST", "BWSURVEY_FAKE_MEMORY",
                                                 "BWSURVEY_BEFF_CORRUPT", "BWSURVEY_LINKS_SLOW_PAIR",
                                                 "BWSURVEY_FIXED_SPEED"};
  return names;
}

bool test_hooks_compiled() { return BWS_TEST_HOOKS != 0; }

TestHooks parse_test_hooks(const char* inject_fault, const char* slow_host, const char* fake_memory) {
  TestHooks hooks;
  if (inject_fault) {
    for (const std::string& item : split_comma_list(inject_fault)) {
      const auto colon = item.find(':');
      if (colon == std::string::npos) continue;
      const std::string what = item.substr(0, colon), arg = item.substr(colon + 1);
      if (what == "prepare") parse_int(arg, hooks.fail_prepare_rank);
      if (what == "hang") parse_int(arg, hooks.hang_rank);
      if (what == "kill-after") hooks.kill_after_phase = arg;
      if (what == "write-error") hooks.write_error_step = arg;
      if (what == "stop") {
        const auto at = arg.rfind(':');
        if (at != std::string::npos && at > 0 && parse_int(arg.substr(at + 1), hooks.stop_rank))
          hooks.stop_phase = arg.substr(0, at);
      }
    }
  }
  if (slow_host) {
    std::string text = slow_host;
    constexpr const char* kFirstPass = ":first-pass";
    const std::size_t suffix = std::char_traits<char>::length(kFirstPass);
    const bool first_pass = text.size() > suffix && text.compare(text.size() - suffix, suffix, kFirstPass) == 0;
    if (first_pass) text.resize(text.size() - suffix);
    const auto colon = text.rfind(':');
    if (colon != std::string::npos && colon > 0) {
      char* end = nullptr;
      const double factor = std::strtod(text.c_str() + colon + 1, &end);
      if (end && *end == '\0' && factor > 1) {
        hooks.slow_host = text.substr(0, colon);
        hooks.slow_factor = factor;
        hooks.slow_first_pass_only = first_pass;
      }
    }
  }
  if (fake_memory) {
    for (const std::string& item : split_comma_list(fake_memory)) {
      const auto colon = item.rfind(':');
      if (colon == std::string::npos || colon == 0) continue;
      char* end = nullptr;
      const std::string number = item.substr(colon + 1);
      const double bytes = std::strtod(number.c_str(), &end);
      if (end && *end == '\0' && bytes > 0) hooks.fake_memory_bytes[item.substr(0, colon)] = static_cast<std::uint64_t>(bytes);
    }
  }
  return hooks;
}

TestHooks read_test_hooks() {
  if (!test_hooks_compiled()) return {};
  TestHooks hooks = parse_test_hooks(std::getenv("BWSURVEY_INJECT_FAULT"), std::getenv("BWSURVEY_SLOW_HOST"),
                                     std::getenv("BWSURVEY_FAKE_MEMORY"));
  const char* fixed_speed = std::getenv("BWSURVEY_FIXED_SPEED");
  hooks.fixed_speed = fixed_speed && *fixed_speed && std::string_view(fixed_speed) != "0";
  return hooks;
}

std::vector<std::string> hook_variables_set() {
  std::vector<std::string> set;
  for (const std::string& name : test_hook_variables())
    if (const char* v = std::getenv(name.c_str()); v && *v) set.push_back(name + "=" + v);
  return set;
}

}  // namespace bws::run
