#pragma once
// The INI files --config reads: "key = value" lines, "[section]" headers that
// prefix the following keys ("[stream]" + "ntimes = 5" is stream.ntimes),
// comments starting with '#' or ';', blank lines. Every problem names the
// file and the line.
#include <string>
#include <vector>

namespace bws::survey {

struct IniEntry {
  std::string key;    // full dotted name
  std::string value;
  int line = 0;
};

// Parses INI text; `origin` names the file in messages. Throws UsageError
// "--config 'f.ini' line 3: ..." on a malformed line.
std::vector<IniEntry> parse_ini(const std::string& text, const std::string& origin);

// Reads a file's whole text; UsageError naming `option` when it is missing
// or unreadable.
std::string read_config_file(const std::string& path, const std::string& option = "--config");

}  // namespace bws::survey
