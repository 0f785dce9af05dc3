#include "core/OptionText.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <charconv>
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

std::string quoted_input(std::string_view text, std::size_t max_chars) {
  std::string out = "'";
  std::size_t shown = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) != 0x80 && shown++ == max_chars) {  // at a character's first byte
      out += "...";
      break;
    }
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      static const char* const hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "'";
}

NumberRead read_whole_number(std::string_view text, std::uint64_t& value) {
  const std::string t = trim_text(text);
  if (t.empty() || !std::all_of(t.begin(), t.end(), [](unsigned char c) { return std::isdigit(c); }))
    return NumberRead::NotANumber;
  const auto [end, error] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (error == std::errc::result_out_of_range) return NumberRead::OutOfRange;
  if (error != std::errc() || end != t.data() + t.size()) return NumberRead::NotANumber;
  return NumberRead::Ok;
}

NumberRead read_real_number(std::string_view text, double& value) {
  const std::string t = trim_text(text);
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t from = i;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
    return i > from;
  };
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
  bool mantissa = digits();
  if (i < t.size() && t[i] == '.') {
    ++i;
    mantissa = digits() || mantissa;
  }
  if (!mantissa) return NumberRead::NotANumber;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (!digits()) return NumberRead::NotANumber;
  }
  if (i != t.size()) return NumberRead::NotANumber;
  // The syntax is checked: strtod only converts (in the "C" locale's
  // syntax, which is the one above), and overflows to HUGE_VAL.
  value = std::strtod(t.c_str(), nullptr);
  if (!std::isfinite(value)) return NumberRead::OutOfRange;
  return NumberRead::Ok;
}

std::uint64_t parse_whole_number(const std::string& text, const char* key, std::uint64_t lo, std::uint64_t hi) {
  const std::string allowed = "; allowed: " + std::to_string(lo) + ".." + std::to_string(hi);
  std::uint64_t value = 0;
  const NumberRead read = read_whole_number(text, value);
  if (read == NumberRead::NotANumber)
    throw UsageError(option_flag(key) + ": " + quoted_input(text) + " is not a whole number" + allowed);
  if (read == NumberRead::OutOfRange || value < lo || value > hi)
    throw UsageError(option_flag(key) + ": " + quoted_input(text) + " is out of range" + allowed);
  return value;
}

std::optional<bool> read_truth(std::string_view text) {
  const std::string t = lower_text(trim_text(std::string(text)));
  if (t == "on" || t == "true" || t == "yes" || t == "1") return true;
  if (t == "off" || t == "false" || t == "no" || t == "0") return false;
  return std::nullopt;
}

double parse_real_number(const std::string& text, const char* key, const std::string& allowed) {
  double value = 0;
  const NumberRead read = read_real_number(text, value);
  if (read == NumberRead::NotANumber)
    throw UsageError(option_flag(key) + ": " + quoted_input(text) + " is not a number; allowed: " + allowed);
  if (read == NumberRead::OutOfRange)
    throw UsageError(option_flag(key) + ": " + quoted_input(text) + " is out of range; allowed: " + allowed);
  return value;
}

double parse_real_number(const std::string& text, const char* key, double lo, double hi, const std::string& allowed) {
  const double value = parse_real_number(text, key, allowed);
  if (!(value >= lo && value <= hi))
    throw UsageError(option_flag(key) + ": " + quoted_input(text) + " is out of range; allowed: " + allowed);
  return value;
}

}  // namespace bws
