#pragma once
// Reading option values that benchmarks declared as text (Config.hpp): the
// shared helpers of every plan() — trimming, lists, whole and real numbers
// with a UsageError that names the option and the allowed range.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "core/Config.hpp"

namespace bws {

// "--" + key, as messages name options.
std::string option_flag(const char* key);
// The option's text; its default when the Config does not hold it (a Config
// built by hand in a test), so the defaults live in one place.
std::string option_text(const Config& config, const char* key, const char* default_value);
// True when the option was left at its default (or is not in the Config).
bool option_defaulted(const Config& config, const char* key);

std::string trim_text(std::string_view text);
std::string lower_text(std::string text);
// "a, b,c" -> {"a", "b", "c"}; empty entries stay (callers reject them).
std::vector<std::string> split_comma_list(const std::string& text);
// An item of a range list: "lo..hi" or "lo-hi" gives {lo, hi} (untrimmed);
// anything else (a single value, or "-3") gives nullopt.
std::optional<std::pair<std::string, std::string>> split_range_item(const std::string& item);

// A whole number in [lo, hi]; UsageError "--key: 'x' is not a whole number;
// allowed: lo..hi" or "... is out of range; allowed: lo..hi" otherwise.
std::uint64_t parse_whole_number(const std::string& text, const char* key, std::uint64_t lo, std::uint64_t hi);
// A truth value: true/1/yes/on or false/0/no/off (any case); UsageError
// "--key: 'x' is not a flag; allowed: <allowed>" otherwise.
bool parse_flag_text(const std::string& text, const char* key, const char* allowed = "true, false");
// A finite real number; UsageError "--key: 'x' is not a number; allowed: <allowed>".
double parse_real_number(const std::string& text, const char* key, const std::string& allowed);

}  // namespace bws
