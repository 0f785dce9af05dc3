#include "core/Sizes.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/Errors.hpp"
#include "core/OptionText.hpp"

namespace bws {
namespace {

const char* const kSizeHelp =
    "expected a positive whole number with an optional suffix K, M, G, T, KiB, MiB, GiB, TiB (x1024) or "
    "KB, MB, GB, TB (x1000), e.g. 64M, 1GiB, 1e7";

[[noreturn]] void bad(std::string_view option, std::string_view text, const std::string& why) {
  throw UsageError(std::string(option) + ": " + quoted_input(text) + " " + why);
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The multiplier of a suffix, or 0 when it is not one.
double suffix_multiplier(std::string_view suffix) {
  const std::string s = lower(suffix);
  if (s.empty() || s == "b") return 1;
  static const char* const letters = "kmgt";
  for (int i = 0; i < 4; ++i) {
    const std::string l(1, letters[i]);
    if (s == l || s == l + "ib") return std::ldexp(1.0, 10 * (i + 1));
    if (s == l + "b") return std::pow(1000.0, i + 1);
  }
  return 0;
}

}  // namespace

std::uint64_t parse_size(std::string_view text, std::string_view option, std::uint64_t max) {
  std::size_t begin = 0, end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  const std::string trimmed(text.substr(begin, end - begin));
  if (trimmed.empty()) bad(option, text, std::string("is empty; ") + kSizeHelp);
  if (trimmed[0] == '-') bad(option, text, std::string("is negative; ") + kSizeHelp);

  // The number: digits with an optional fraction and exponent.
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t from = i;
    while (i < trimmed.size() && std::isdigit(static_cast<unsigned char>(trimmed[i]))) ++i;
    return i > from;
  };
  if (trimmed[0] == '+') ++i;
  bool any = digits();
  if (i < trimmed.size() && trimmed[i] == '.') {
    ++i;
    any = digits() || any;
  }
  if (!any) bad(option, text, std::string("is not a size; ") + kSizeHelp);
  if (i < trimmed.size() && (trimmed[i] == 'e' || trimmed[i] == 'E')) {
    const std::size_t mark = i++;
    if (i < trimmed.size() && (trimmed[i] == '+' || trimmed[i] == '-')) ++i;
    if (!digits()) i = mark;  // "1E" is not an exponent; let the suffix check reject it
  }
  // The syntax is checked above; strtod only converts (no exception: a
  // magnitude beyond double's range is HUGE_VAL, caught as too large below).
  const double number = std::strtod(trimmed.substr(0, i).c_str(), nullptr);
  const double multiplier = suffix_multiplier(std::string_view(trimmed).substr(i));
  if (multiplier == 0) bad(option, text, std::string("has an unknown suffix; ") + kSizeHelp);

  const double value = number * multiplier;
  if (value == 0) bad(option, text, "must be positive; " + std::string(kSizeHelp));
  if (!(value <= static_cast<double>(max)))
    bad(option, text, "is absurdly large (above " + format_bytes(static_cast<double>(max)) + ")");
  if (value != std::floor(value)) bad(option, text, "is not a whole number; " + std::string(kSizeHelp));
  return static_cast<std::uint64_t>(value);
}

std::string format_bytes(double bytes) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024 && u < 6) {
    bytes /= 1024;
    ++u;
  }
  char buf[48];
  if (u == 0)
    std::snprintf(buf, sizeof buf, "%.0f B", bytes);
  else
    std::snprintf(buf, sizeof buf, "%.2f %s", bytes, units[u]);
  return buf;
}

std::string format_rate(double bytes_per_second) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.2f GB/s", bytes_per_second / 1e9);
  return buf;
}

}  // namespace bws
