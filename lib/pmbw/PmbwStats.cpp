#include "pmbw/PmbwStats.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <stdexcept>

#include "bws/Version.hpp"
#include "core/Errors.hpp"
#include "core/OptionText.hpp"
#include "core/Report.hpp"
#include "core/SideFile.hpp"
#include "core/Timestamps.hpp"
#include "pmbw/PmbwOptions.hpp"
#include "pmbw/PmbwPlan.hpp"
#include "pmbw/PmbwResults.hpp"

namespace bws::pmbw {
namespace {

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
  add("time", significant(l.time, 17));
  add("bandwidth", significant(l.bandwidth, 17));
  add("rate", significant(l.rate, 17));
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
  check_side_file(flag, path, config);
  return std::make_unique<StatsExporter>(flag, path);
}

}  // namespace bws::pmbw
