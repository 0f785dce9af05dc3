#include "pmbw/PmbwStatsFiles.hpp"

#include <cctype>
#include <filesystem>

#include "core/Errors.hpp"

namespace bws::pmbw {
namespace {

std::string host_in_name(const std::string& host) {
  std::string out = host.empty() ? std::string("_") : host;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  if (out == "." || out == "..") out = "_";
  return out;
}

bool in_host(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_'; }
bool in_rank(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Whether name[n..] is what pattern[p..] makes: %h one or more host
// characters, %r one or more digits, %% a '%', any other character itself.
bool matches_from(const std::string& pattern, std::size_t p, const std::string& name, std::size_t n) {
  if (p == pattern.size()) return n == name.size();
  if (pattern[p] == '%' && p + 1 < pattern.size() && pattern[p + 1] != '%') {
    bool (*fits)(char) = pattern[p + 1] == 'h' ? in_host : in_rank;
    for (std::size_t end = n; end < name.size() && fits(name[end]); ++end)
      if (matches_from(pattern, p + 2, name, end + 1)) return true;
    return false;
  }
  const std::size_t step = pattern[p] == '%' && p + 1 < pattern.size() ? 2 : 1;
  return n < name.size() && name[n] == pattern[p] && matches_from(pattern, p + step, name, n + 1);
}

}  // namespace

bool is_stats_pattern(const std::string& flag, const std::string& path) {
  bool fields = false;
  const std::size_t slash = path.rfind('/');
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] != '%') continue;
    const char next = i + 1 < path.size() ? path[i + 1] : '\0';
    if (next != 'h' && next != 'r' && next != '%')
      throw UsageError(flag + ": '%" + std::string(next ? 1 : 0, next) + "' in '" + path +
                       "' is not a field; allowed: %h (host), %r (rank), %% (a per cent sign) in the file name");
    if (next != '%') {
      if (slash != std::string::npos && i < slash)
        throw UsageError(flag + ": '%" + std::string(1, next) + "' in the directory of '" + path +
                         "'; allowed: %h (host) and %r (rank) in the file name only");
      fields = true;
    }
    ++i;
  }
  return fields;
}

std::string stats_file_of(const std::string& pattern, const std::string& host, std::int64_t rank) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%' || i + 1 == pattern.size()) {
      out += pattern[i];
      continue;
    }
    const char next = pattern[++i];
    if (next == 'h')
      out += host_in_name(host);
    else if (next == 'r')
      out += std::to_string(rank);
    else
      out += next;
  }
  return out;
}

bool matches_stats_pattern(const std::string& pattern, const std::string& file_name) {
  return matches_from(std::filesystem::path(pattern).filename().string(), 0, file_name, 0);
}

}  // namespace bws::pmbw
