#include "core/IniFile.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <sstream>

#include "core/Errors.hpp"
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

bool read_small_regular_file(const std::string& path, std::string& text, std::string& why) {
  text.clear();
  // O_NONBLOCK: opening a FIFO without a writer would otherwise wait forever.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    why = std::string("cannot be read: ") + std::strerror(errno);
    return false;
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    why = std::string("cannot be read: ") + std::strerror(errno);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    why = S_ISDIR(st.st_mode)    ? "is a directory, not a file"
          : S_ISFIFO(st.st_mode) ? "is a FIFO, not a regular file"
          : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "is a device, not a regular file"
                                                       : "is not a regular file";
    return false;
  }
  const std::string too_large = "is larger than " + std::to_string(kMaxConfigFileBytes >> 20) + " MiB";
  if (static_cast<std::uintmax_t>(st.st_size) > kMaxConfigFileBytes) {
    why = too_large;
    return false;
  }
  // Read up to one byte past the limit: a file that grows meanwhile is caught too.
  char buffer[65536];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      why = std::string("cannot be read: ") + std::strerror(errno);
      return false;
    }
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > kMaxConfigFileBytes) {
      why = too_large;
      return false;
    }
  }
  return true;
}

std::string read_config_file(const std::string& path, const std::string& option) {
  std::string text, why;
  if (!read_small_regular_file(path, text, why))
    throw UsageError(option + ": " + quoted_input(path, kMaxQuotedPathChars) + " " + why +
                     (why.rfind("cannot", 0) == 0 ? "" : "; allowed: an INI file (a regular file)"));
  return text;
}

}  // namespace bws
