#include "core/Timestamps.hpp"

#include <ctime>

namespace bws {
namespace {

std::string now_text(bool utc, const char* format) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  if (utc)
    gmtime_r(&now, &tm);
  else
    localtime_r(&now, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

}  // namespace

std::string utc_now_iso8601() { return now_text(true, "%Y-%m-%dT%H:%M:%SZ"); }

std::string local_now_text() { return now_text(false, "%Y-%m-%d %H:%M:%S"); }

}  // namespace bws
