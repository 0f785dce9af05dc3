#pragma once
// Reading option values that benchmarks declared as text (Config.hpp): the
// shared helpers of every plan() — trimming, lists, whole and real numbers
// with a UsageError that names the option and the allowed range.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
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

// An input value as a message quotes it: in single quotes, control
// characters escaped (\n, \x00), at most kMaxQuotedChars characters of it
// and then "...". Every message that echoes input uses it: a value of
// kilobytes (or with newlines) never comes back whole. A file path may
// show more (kMaxQuotedPathChars): its end tells files apart.
inline constexpr std::size_t kMaxQuotedChars = 80;
inline constexpr std::size_t kMaxQuotedPathChars = 200;
std::string quoted_input(std::string_view text, std::size_t max_chars = kMaxQuotedChars);

// The checked number readers every parse of input goes through (no
// std::stod/stoi: they throw std::invalid_argument or std::out_of_range,
// which name no option). Surrounding whitespace is allowed.
enum class NumberRead { Ok, NotANumber, OutOfRange };
// Decimal digits only (no sign, no exponent) that fit in 64 bits.
NumberRead read_whole_number(std::string_view text, std::uint64_t& value);
// [+-]digits[.digits][(e|E)[+-]digits] (or .digits), finite: no hex, inf or
// nan; a magnitude beyond double's range is OutOfRange.
NumberRead read_real_number(std::string_view text, double& value);

// A whole number in [lo, hi]; UsageError "--key: 'x' is not a whole number;
// allowed: lo..hi" or "... is out of range; allowed: lo..hi" otherwise.
std::uint64_t parse_whole_number(const std::string& text, const char* key, std::uint64_t lo, std::uint64_t hi);
// The one vocabulary of truth values, for every switch of every tool:
// on/true/yes/1 and off/false/no/0, any case, spaces around ignored;
// nothing for any other text (the caller names its option in the error).
std::optional<bool> read_truth(std::string_view text);
// A finite real number; UsageError "--key: 'x' is not a number; allowed:
// <allowed>" (or "is out of range" beyond double's range).
double parse_real_number(const std::string& text, const char* key, const std::string& allowed);
// A finite real number in [lo, hi]; UsageError "--key: 'x' is out of range;
// allowed: <allowed>" outside.
double parse_real_number(const std::string& text, const char* key, double lo, double hi, const std::string& allowed);

}  // namespace bws
