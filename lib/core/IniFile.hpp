#pragma once
// The INI files --config reads: "key = value" lines, "[section]" headers that
// prefix the following keys ("[stream]" + "ntimes = 5" is stream.ntimes),
// comments starting with '#' or ';', blank lines. Every problem names the
// file and the line.
#include <cstddef>
#include <string>
#include <vector>

namespace bws {

struct IniEntry {
  std::string key;    // full dotted name
  std::string value;
  int line = 0;
};

// Parses INI text; `origin` names the file in messages. Throws UsageError
// "--config 'f.ini' line 3: ..." on a malformed line.
std::vector<IniEntry> parse_ini(const std::string& text, const std::string& origin);

// The largest file read_config_file reads: INI and reference files are a
// few KiB; a larger one is a mistake (a data file named by accident).
inline constexpr std::size_t kMaxConfigFileBytes = std::size_t(16) << 20;

// Reads a file's whole text (FileGuard's read_input_file: the file is
// checked before a byte is read, so a FIFO, a device such as /dev/zero or a
// socket is never read and nothing waits or reads forever); UsageError
// naming `option` and the file when it is missing, unreadable, not a
// regular file or larger than kMaxConfigFileBytes.
std::string read_config_file(const std::string& path, const std::string& option = "--config");

}  // namespace bws
