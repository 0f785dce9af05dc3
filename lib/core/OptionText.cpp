#include "core/OptionText.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "core/Errors.hpp"

namespace bws {

std::string option_flag(const char* key) { return std::string("--") + key; }

std::string option_text(const Config& config, const char* key, const char* default_value) {
  return config.has(key) ? config.get(key) : std::string(default_value);
}

bool option_defaulted(const Config& config, const char* key) { return !config.has(key) || config.is_default(key); }

std::string trim_text(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::string lower_text(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::vector<std::string> split_comma_list(const std::string& text) {
  std::vector<std::string> items;
  std::size_t from = 0;
  while (true) {
    const std::size_t comma = text.find(',', from);
    items.push_back(trim_text(std::string_view(text).substr(from, comma == std::string::npos ? comma : comma - from)));
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  return items;
}

std::optional<std::pair<std::string, std::string>> split_range_item(const std::string& item) {
  std::size_t sep = item.find("..");
  std::size_t sep_len = 2;
  if (sep == std::string::npos) {
    sep = item.find('-');
    sep_len = 1;
  }
  if (sep == std::string::npos || sep == 0) return std::nullopt;
  return std::make_pair(item.substr(0, sep), item.substr(sep + sep_len));
}

std::uint64_t parse_whole_number(const std::string& text, const char* key, std::uint64_t lo, std::uint64_t hi) {
  const std::string t = trim_text(text);
  const std::string allowed = "; allowed: " + std::to_string(lo) + ".." + std::to_string(hi);
  if (t.empty() || !std::all_of(t.begin(), t.end(), [](unsigned char c) { return std::isdigit(c); }))
    throw UsageError(option_flag(key) + ": '" + text + "' is not a whole number" + allowed);
  // More digits than hi has cannot be in range (and might overflow).
  if (t.size() > std::to_string(hi).size() + 1 || std::stoull(t) < lo || std::stoull(t) > hi)
    throw UsageError(option_flag(key) + ": '" + text + "' is out of range" + allowed);
  return std::stoull(t);
}

bool parse_flag_text(const std::string& text, const char* key, const char* allowed) {
  const std::string t = lower_text(trim_text(text));
  if (t == "true" || t == "1" || t == "yes" || t == "on") return true;
  if (t == "false" || t == "0" || t == "no" || t == "off") return false;
  throw UsageError(option_flag(key) + ": '" + text + "' is not a flag; allowed: " + allowed);
}

double parse_real_number(const std::string& text, const char* key, const std::string& allowed) {
  const std::string t = trim_text(text);
  char* end = nullptr;
  const double value = t.empty() ? 0 : std::strtod(t.c_str(), &end);
  if (t.empty() || end != t.c_str() + t.size() || !std::isfinite(value))
    throw UsageError(option_flag(key) + ": '" + text + "' is not a number; allowed: " + allowed);
  return value;
}

}  // namespace bws
