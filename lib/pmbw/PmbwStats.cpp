#include "pmbw/PmbwStats.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <unistd.h>

#include "bws/Version.hpp"
#include "core/Errors.hpp"
#include "core/FormatText.hpp"
#include "core/OptionText.hpp"
#include "core/Report.hpp"
#include "core/SideFile.hpp"
#include "core/Timestamps.hpp"
#include "pmbw/PmbwOptions.hpp"
#include "pmbw/PmbwPlan.hpp"
#include "pmbw/PmbwResults.hpp"
#include "pmbw/PmbwStatsFiles.hpp"

namespace bws::pmbw {
namespace {

// A real as pmbw.cc prints it: an ostream at setprecision(20), i.e. %.20g
// (reads back exactly).
std::string pmbw_real(double v) { return format_text("%.20g", v); }

class StatsExporter final : public TableExporter {
 public:
  StatsExporter(const std::string& flag, std::string path) : file_(flag, std::move(path)) {}
  void start(ExportStart how) override { file_.start(how); }
  void consume(const Table& table) override {
    if (table.path() != kResultsPath) return;
    for (const PmbwStatsLine& line : stats_lines_from_results(table, local_now_text(), BWS_VERSION))
      file_.write_line(format_stats_line(line));
  }
  void finish(bool complete) override { file_.finish(complete); }

 private:
  SideFile file_;
};

// --pmbw.stats with %h/%r: one SideFile per host and rank, started when the
// rank's first rows arrive (a fresh run replaces the file, a resume appends);
// no file stays open between tables. Rank 0 keeps one path per rank.
class StatsFilesExporter final : public TableExporter {
 public:
  StatsFilesExporter(std::string flag, std::string pattern) : flag_(std::move(flag)), pattern_(std::move(pattern)) {}
  void start(ExportStart how) override { how_ = how; }
  void consume(const Table& table) override {
    if (table.path() != kResultsPath) return;
    const std::string now = local_now_text();
    std::map<std::string, std::vector<std::string>> lines;  // file -> this table's lines
    const std::vector<PmbwStatsLine> all = stats_lines_from_results(table, now, BWS_VERSION);
    for (std::size_t r = 0; r < all.size(); ++r)
      lines[stats_file_of(pattern_, all[r].host, table.get_int(r, "rank"))].push_back(format_stats_line(all[r]));
    for (const auto& [path, text] : lines) {
      auto it = files_.find(path);
      if (it == files_.end()) {
        it = files_.emplace(path, SideFile(flag_, path)).first;
        it->second.start(how_);
      }
      for (const std::string& line : text) it->second.write_line(line);
      it->second.close_staging();
    }
  }
  void finish(bool complete) override {
    for (auto& [path, file] : files_) file.finish(complete);
  }

 private:
  std::string flag_, pattern_;
  ExportStart how_ = ExportStart::Fresh;
  std::map<std::string, SideFile> files_;
};

// The pattern's planning checks: its directory as for one file (the file
// of this host and rank 0), and on a fresh run without --force no file the
// pattern makes may exist yet.
void check_stats_pattern(const std::string& flag, const std::string& pattern, const Config& config) {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  check_side_file(flag, stats_file_of(pattern, host, 0), config);
  const bool resume = config.has("resume") && !config.get("resume").empty();
  const bool force = config.has("force") && config.flag("force");
  if (resume || force) return;
  namespace fs = std::filesystem;
  const fs::path parent = fs::path(pattern).parent_path();
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(parent.empty() ? fs::path(".") : parent, error))
    if (matches_stats_pattern(pattern, entry.path().filename().string()))
      throw UsageError(flag + ": '" + entry.path().string() + "' exists (a file of '" + pattern +
                       "'); allowed: new files, or --force to overwrite");
}

}  // namespace

std::string format_stats_line(const PmbwStatsLine& l) {
  std::string s = "RESULT";
  auto add = [&](const char* key, const std::string& value) { s += std::string("\t") + key + "=" + value; };
  add("datetime", l.datetime);
  add("host", l.host);
  add("version", l.version);
  add("funcname", l.funcname);
  add("nthreads", std::to_string(l.nthreads));
  add("areasize", std::to_string(l.areasize));
  add("threadsize", std::to_string(l.threadsize));
  add("testsize", std::to_string(l.testsize));
  add("repeats", std::to_string(l.repeats));
  add("testvol", std::to_string(l.testvol));
  add("testaccess", std::to_string(l.testaccess));
  add("time", pmbw_real(l.time));
  add("bandwidth", pmbw_real(l.bandwidth));
  add("rate", pmbw_real(l.rate));
  return s;
}

PmbwStatsLine parse_stats_line(const std::string& text) {
  std::map<std::string, std::string> kv;
  std::size_t pos = text.find('\t');
  if (text.substr(0, pos) != "RESULT") throw std::invalid_argument("not a RESULT line");
  while (pos != std::string::npos) {
    const std::size_t next = text.find('\t', pos + 1);
    const std::string item = text.substr(pos + 1, next == std::string::npos ? std::string::npos : next - pos - 1);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("'" + item + "' is not key=value");
    kv[item.substr(0, eq)] = item.substr(eq + 1);
    pos = next;
  }
  auto text_of = [&](const char* key) -> const std::string& {
    const auto it = kv.find(key);
    if (it == kv.end()) throw std::invalid_argument(std::string("no ") + key + "=");
    return it->second;
  };
  auto whole = [&](const char* key) {
    const std::string& v = text_of(key);
    char* end = nullptr;
    errno = 0;
    const unsigned long long x = std::strtoull(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || errno != 0 || v[0] == '-') throw std::invalid_argument(std::string(key) + "=" + v);
    return static_cast<std::uint64_t>(x);
  };
  auto real = [&](const char* key) {
    const std::string& v = text_of(key);
    char* end = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    if (v.empty() || *end != '\0') throw std::invalid_argument(std::string(key) + "=" + v);
    return x;
  };
  PmbwStatsLine l;
  l.datetime = text_of("datetime");
  l.host = text_of("host");
  l.version = text_of("version");
  l.funcname = text_of("funcname");
  l.nthreads = whole("nthreads");
  l.areasize = whole("areasize");
  l.threadsize = whole("threadsize");
  l.testsize = whole("testsize");
  l.repeats = whole("repeats");
  l.testvol = whole("testvol");
  l.testaccess = whole("testaccess");
  l.time = real("time");
  l.bandwidth = real("bandwidth");
  l.rate = real("rate");
  return l;
}

std::vector<PmbwStatsLine> stats_lines_from_results(const Table& t, const std::string& datetime,
                                                    const std::string& version) {
  std::vector<PmbwStatsLine> lines;
  for (std::size_t r = 0; r < t.rows(); ++r) {
    PmbwStatsLine l;
    l.datetime = datetime;
    l.host = t.get_string(r, "host");
    l.version = version;
    l.funcname = t.get_string(r, "routine");
    l.nthreads = static_cast<std::uint64_t>(t.get_int(r, "threads"));
    l.areasize = static_cast<std::uint64_t>(t.get_int(r, "area_bytes"));
    l.threadsize = static_cast<std::uint64_t>(t.get_int(r, "thread_bytes"));
    l.testsize = static_cast<std::uint64_t>(t.get_int(r, "test_bytes"));
    l.repeats = static_cast<std::uint64_t>(t.get_int(r, "repeats"));
    l.testvol = static_cast<std::uint64_t>(t.get_int(r, "bytes"));
    l.testaccess = static_cast<std::uint64_t>(t.get_int(r, "accesses"));
    l.time = t.get_double(r, "t_min");
    l.bandwidth = t.get_double(r, "bandwidth");
    l.rate = t.get_double(r, "access_seconds");
    lines.push_back(std::move(l));
  }
  return lines;
}

std::unique_ptr<TableExporter> make_pmbw_stats_exporter(const Config& config) {
  const PmbwOptions o = pmbw_schema().read(config, false);
  const std::string path = trim_text(o.stats_path);
  if (path.empty()) return nullptr;
  const std::string flag = o.flag(&PmbwOptions::stats_path);
  if (is_stats_pattern(flag, path)) {
    check_stats_pattern(flag, path, config);
    return std::make_unique<StatsFilesExporter>(flag, path);
  }
  check_side_file(flag, stats_file_of(path, "", 0), config);  // %% is a '%'
  return std::make_unique<StatsExporter>(flag, stats_file_of(path, "", 0));
}

}  // namespace bws::pmbw
