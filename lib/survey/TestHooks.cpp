#include "survey/TestHooks.hpp"

#include <cstdlib>

#include "core/OptionText.hpp"

namespace bws::survey {
namespace {

bool parse_int(const std::string& text, int& out) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || end != text.c_str() + text.size() || v < 0) return false;
  out = static_cast<int>(v);
  return true;
}

}  // namespace

TestHooks parse_test_hooks(const char* inject_fault, const char* slow_host) {
  TestHooks hooks;
  if (inject_fault) {
    for (const std::string& item : split_comma_list(inject_fault)) {
      const auto colon = item.find(':');
      if (colon == std::string::npos) continue;
      const std::string what = item.substr(0, colon), arg = item.substr(colon + 1);
      if (what == "prepare") parse_int(arg, hooks.fail_prepare_rank);
      if (what == "hang") parse_int(arg, hooks.hang_rank);
      if (what == "kill-after") hooks.kill_after_phase = arg;
    }
  }
  if (slow_host) {
    const std::string text = slow_host;
    const auto colon = text.rfind(':');
    if (colon != std::string::npos && colon > 0) {
      char* end = nullptr;
      const double factor = std::strtod(text.c_str() + colon + 1, &end);
      if (end && *end == '\0' && factor > 1) {
        hooks.slow_host = text.substr(0, colon);
        hooks.slow_factor = factor;
      }
    }
  }
  return hooks;
}

TestHooks read_test_hooks() {
  return parse_test_hooks(std::getenv("BWSURVEY_INJECT_FAULT"), std::getenv("BWSURVEY_SLOW_HOST"));
}

}  // namespace bws::survey
