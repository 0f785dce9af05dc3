#include "core/Config.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "core/Errors.hpp"
#include "core/OptionText.hpp"

namespace bws {

Config::Config(std::map<std::string, std::string, std::less<>> values, std::set<std::string, std::less<>> defaulted)
    : values_(std::move(values)), defaulted_(std::move(defaulted)) {}

bool Config::has(std::string_view key) const { return values_.find(key) != values_.end(); }

const std::string& Config::get(std::string_view key) const {
  const auto it = values_.find(key);
  if (it == values_.end()) throw std::out_of_range("no option '" + std::string(key) + "' was declared");
  return it->second;
}

bool Config::flag(std::string_view key) const {
  const std::string& text = get(key);
  if (trim_text(text).empty()) return false;  // a switch with no value stored: off
  if (const std::optional<bool> truth = read_truth(text)) return *truth;
  throw UsageError("--" + std::string(key) + ": " + quoted_input(text) +
                   " is not on or off; allowed: on, off (also true/false, yes/no, 1/0)");
}

bool Config::is_default(std::string_view key) const { return defaulted_.find(key) != defaulted_.end(); }

void Config::set(std::string key, std::string value) {
  defaulted_.erase(key);
  values_[std::move(key)] = std::move(value);
}

std::string Config::to_ini(const std::set<std::string, std::less<>>& skip) const {
  // Top-level keys first (an INI file's keys before any [section]), then one
  // section per dotted prefix, so the text reads back through --config. A
  // value left at its default is a comment line: read back, the option is
  // again at its default, and whatever depends on that (--quick's shorter
  // sweeps) plans alike.
  std::ostringstream top, sections;
  top << kConfigHeader;
  std::string current;
  for (const auto& [key, value] : values_) {
    if (skip.count(key)) continue;
    const std::string mark = is_default(key) ? kDefaultLineMark : "";
    const auto dot = key.find('.');
    if (dot == std::string::npos) {
      top << mark << key << " = " << value << "\n";
      continue;
    }
    const std::string section = key.substr(0, dot);
    if (section != current) {
      sections << "\n[" << section << "]\n";
      current = section;
    }
    sections << mark << key.substr(dot + 1) << " = " << value << "\n";
  }
  return top.str() + sections.str();
}

std::string default_lines_of(const std::string& ini_text) {
  std::istringstream in(ini_text);
  std::string out, line;
  const std::string mark = kDefaultLineMark;
  while (std::getline(in, line)) {
    const auto first = line.find_first_not_of(" \t");
    const std::string text = first == std::string::npos ? "" : line.substr(first);
    if (text.rfind(mark, 0) == 0)
      out += text.substr(mark.size());
    else if (!text.empty() && text[0] == '[')
      out += text;
    out += '\n';
  }
  return out;
}

}  // namespace bws
