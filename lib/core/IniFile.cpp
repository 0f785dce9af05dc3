#include "core/IniFile.hpp"

#include <cctype>
#include <sstream>

#include "core/Errors.hpp"
#include "core/FileGuard.hpp"
#include "core/OptionText.hpp"

namespace bws {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

bool valid_name(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.')) return false;
  return true;
}

}  // namespace

std::vector<IniEntry> parse_ini(const std::string& text, const std::string& origin) {
  std::vector<IniEntry> entries;
  std::istringstream in(text);
  std::string raw, section;
  int line_number = 0;
  auto fail = [&](const std::string& why) {
    throw UsageError("--config " + quoted_input(origin, kMaxQuotedPathChars) + " line " + std::to_string(line_number) + ": " +
                     why);
  };
  while (std::getline(in, raw)) {
    ++line_number;
    const std::string line = trim(raw);
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line.front() == '[') {
      if (line.back() != ']') fail("section header " + quoted_input(line) + " has no closing ']'");
      section = trim(line.substr(1, line.size() - 2));
      if (!valid_name(section)) fail("bad section name " + quoted_input(section) + "; allowed: letters, digits, - _ .");
      continue;
    }
    const auto eq = line.find('=');
    if (eq == std::string::npos) fail("expected 'key = value' or '[section]', got " + quoted_input(line));
    const std::string key = trim(line.substr(0, eq));
    if (!valid_name(key)) fail("bad key " + quoted_input(key) + "; allowed: letters, digits, - _ .");
    std::string value = trim(line.substr(eq + 1));
    // A comment may follow the value after whitespace.
    for (const char* mark : {" #", "\t#", " ;", "\t;"}) {
      const auto c = value.find(mark);
      if (c != std::string::npos) value = trim(value.substr(0, c));
    }
    entries.push_back({section.empty() ? key : section + "." + key, value, line_number});
  }
  return entries;
}

std::string read_config_file(const std::string& path, const std::string& option) {
  return read_input_file(option, path, kMaxConfigFileBytes);
}

}  // namespace bws
