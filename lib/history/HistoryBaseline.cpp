// bwreport history baseline ARCHIVE --out ref.ini: the --reference file
// (model/References.hpp) learned from the site's own history. Per cohort and
// metric: the target is the median of the cohort's valid values over its
// most recent --window complete surveys; the bound on the bad side is
// -k x 1.4826 x MAD / median (a robust standard deviation, in fractions of
// the target), never tighter than kSpreadFloor: a metric that hardly varies
// would otherwise flag a node for a 1 % dip. The good side stays open.
// Values the survey itself flagged are left out: a reference describes a
// healthy node, and a node known to be slow in the window would widen the
// spread until it passed its own reference (a 4x slow node inside a
// 77 % bound, on a loaded machine).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

#include <boost/program_options/options_description.hpp>

#include "catalog/Registry.hpp"
#include "core/Errors.hpp"
#include "core/FileGuard.hpp"
#include "core/OptionText.hpp"
#include "core/PrintableText.hpp"
#include "core/SampleStats.hpp"
#include "core/Timestamps.hpp"
#include "history/ArchiveAccess.hpp"
#include "history/HistoryCommands.hpp"
#include "history/SeriesQuery.hpp"
#include "model/References.hpp"
#include "model/RobustStats.hpp"
#include "report/CommandOptions.hpp"

namespace po = boost::program_options;

namespace bws::history {
namespace {

using report::CommandArgs;

constexpr double kSpreadFloor = 0.05;  // bounds no tighter than 5 % of the target
constexpr double kSpreadCap = 0.9;     // nor wider than 90 % (a bound at 0 judges nothing)

struct Pool {
  std::vector<double> values;
  std::set<std::int64_t> surveys;  // survey ids in the window
};

struct Line {
  std::string metric;
  double target = 0;  // the metric's unit
  double fraction = 0;
  bool higher_is_better = true;
  std::string unit;
};

std::string format(const char* spec, double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, spec, v);
  return buf;
}

// A host name as a glob that matches it alone.
std::string glob_escaped(const std::string& text) {
  std::string s;
  for (char c : text) {
    if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') s += '\\';
    s += c;
  }
  return s;
}

std::string common_prefix(const std::vector<std::string>& names) {
  if (names.empty()) return "";
  std::string prefix = names.front();
  for (const std::string& n : names) {
    std::size_t i = 0;
    while (i < prefix.size() && i < n.size() && prefix[i] == n[i]) ++i;
    prefix.resize(i);
  }
  return prefix;
}

std::string line_text(const Line& l) {
  const bool bytes = l.unit == "B/s";
  const std::string target = format("%.6g", bytes ? l.target / 1e9 : l.target);
  const std::string bound = format("%.4f", l.fraction);
  return l.metric + " = " + target + ", " + (l.higher_is_better ? "-" + bound : "none") + ", " +
         (l.higher_is_better ? "none" : bound) + ", " + (bytes ? "GB/s" : l.unit);
}

struct BaselineOptions : TypedOptions {
  std::string out;
  std::uint64_t window = 0;
  double k = 0;
};

const OptionSchema<BaselineOptions>& baseline_schema() {
  static const OptionSchema<BaselineOptions> schema({
      bind_option(text_option("out", "", "the reference file to write (required; replaced atomically)"),
                  &BaselineOptions::out),
      bind_option(whole_option("window", "10", 1, 100000, "surveys",
                               "surveys per cohort and metric, the most recent complete ones"),
                  &BaselineOptions::window),
      bind_option(real_option("k", "4", 0, 100, "",
                              "bound = k robust standard deviations (1.4826 x MAD) of the window, at least 5 %")
                      .above_min(),
                  &BaselineOptions::k),
  });
  return schema;
}

// What the archive's window holds: per (cohort, metric) the values taken,
// each host's cohort in its newest survey, the metrics left out and why.
struct WindowValues {
  std::map<std::pair<std::int64_t, std::int64_t>, Pool> pools;  // (cohort, metric)
  std::map<std::int64_t, std::int64_t> host_cohort;             // a host's cohort in its newest survey
  std::map<std::int64_t, std::string> skipped;                  // metric id -> why
  std::set<std::int64_t> surveys_used;
};

// Newest survey first: each (cohort, metric) takes values until its window is full.
WindowValues read_window(SqliteDb& db, const ArchiveIndex& index, const std::vector<model::NodeMetric>& known,
                         std::size_t window) {
  WindowValues w;
  SqliteStatement statement = prepare_survey_metric(db);
  for (const auto& [metric_id, metric] : index.metrics) {
    std::string why;
    const model::NodeMetric* resolved = model::resolve_metric_key(known, metric.name, why);
    if (!resolved || resolved->unit != metric.unit) {
      w.skipped[metric_id] = resolved ? "unit " + metric.unit + ", bwsurvey's is " + resolved->unit : "unknown to this bwsurvey";
      continue;
    }
    for (std::size_t s = index.surveys.size(); s-- > 0;) {
      const std::int64_t survey_id = index.surveys[s].id;
      for (const CohortValue& v : read_survey_metric(statement, survey_id, metric_id)) {
        if (v.flagged) {
          w.host_cohort.emplace(v.host_id, v.cohort_id);
          continue;
        }
        Pool& pool = w.pools[{v.cohort_id, metric_id}];
        if (!pool.surveys.count(survey_id) && pool.surveys.size() >= window) continue;
        pool.surveys.insert(survey_id);
        pool.values.push_back(v.value);
        w.host_cohort.emplace(v.host_id, v.cohort_id);
        w.surveys_used.insert(survey_id);
      }
    }
  }
  return w;
}

// Per cohort: its reference lines, and the surveys behind them.
struct CohortLines {
  std::map<std::int64_t, std::vector<Line>> lines;
  std::map<std::int64_t, std::set<std::int64_t>> surveys;
};

CohortLines cohort_lines_of(WindowValues& w, const ArchiveIndex& index, double k) {
  CohortLines c;
  for (const auto& [key, pool] : w.pools) {
    const ArchiveMetric& metric = index.metrics.at(key.second);
    const double target = median_of(pool.values);
    if (!(target > 0) || !std::isfinite(target)) {
      w.skipped[key.second] = "a median <= 0";
      continue;
    }
    const double mad = model::median_absolute_deviation(pool.values);
    const double fraction = std::min(std::max(k * model::kMadToSigma * mad / target, kSpreadFloor), kSpreadCap);
    c.lines[key.first].push_back({metric.name, target, fraction, metric.higher_is_better, metric.unit});
    c.surveys[key.first].insert(pool.surveys.begin(), pool.surveys.end());
  }
  return c;
}

// One glob for the cohort when one matches its hosts and no other cohort's;
// else one section per host.
std::vector<std::string> cohort_patterns(std::int64_t cohort, const std::vector<std::string>& hosts,
                                         const std::map<std::int64_t, std::vector<std::string>>& cohort_hosts,
                                         std::size_t cohorts) {
  if (cohorts == 1) return {"*"};
  const std::string prefix = common_prefix(hosts);
  bool alone = !prefix.empty();
  for (const auto& [other, other_hosts] : cohort_hosts)
    if (other != cohort)
      for (const std::string& h : other_hosts) alone = alone && h.compare(0, prefix.size(), prefix) != 0;
  if (alone) return {glob_escaped(prefix) + "*"};
  std::vector<std::string> patterns;
  for (const std::string& h : hosts) patterns.push_back(glob_escaped(h));
  return patterns;
}

void write_header(std::ostream& text, const std::string& path, long long window, double k, const WindowValues& w,
                  const ArchiveIndex& index, const std::vector<std::string>& unnamable) {
  text << "# bwsurvey reference file (bwsurvey --reference), written by 'bwreport history baseline'\n"
       << "# archive: " << printable_text(path, 300) << "\n"
       << "# written: " << utc_now_iso8601() << "\n"
       << "# window: the " << window << " most recent complete surveys with valid values, per cohort and metric;\n"
       << "# values a survey flagged (its /flags named the host and metric) are left out\n"
       << "# surveys used: " << w.surveys_used.size();
  if (!w.surveys_used.empty()) {
    std::string ids;
    for (std::int64_t id : w.surveys_used) ids += (ids.empty() ? "" : ",") + std::to_string(id);
    text << " (ids " << printable_text(ids, 400) << ")";
  }
  text << "\n# target: the cohort's median of those values; bound on the bad side: max(" << format("%g", k)
       << " x 1.4826 x MAD / median, " << format("%g", kSpreadFloor) << "), at most " << format("%g", kSpreadCap)
       << "; the good side is open (upper none for higher-is-better metrics, lower none for times)\n";
  for (const auto& [metric_id, why] : w.skipped)
    text << "# left out: " << printable_text(index.metrics.at(metric_id).name, 128) << " (" << printable_text(why, 200) << ")\n";
  for (const std::string& name : unnamable)
    text << "# left out host " << printable_text(name, 128) << " (control characters in its name)\n";
}

struct ReferenceText {
  std::string text;
  std::size_t sections = 0, metric_lines = 0;
};

ReferenceText reference_text(const std::string& path, long long window, double k, const WindowValues& w,
                             CohortLines& c, const ArchiveIndex& index) {
  std::map<std::int64_t, std::vector<std::string>> cohort_hosts;
  std::vector<std::string> unnamable;  // a name with control characters cannot be a section of the file
  for (const auto& [host, cohort] : w.host_cohort) {
    const std::string& name = index.hosts.at(host);
    if (is_printable_text(name)) cohort_hosts[cohort].push_back(name);
    else unnamable.push_back(name);
  }
  std::ostringstream text;
  write_header(text, path, window, k, w, index, unnamable);
  ReferenceText r;
  for (auto& [cohort, cohort_lines] : c.lines) {
    std::sort(cohort_lines.begin(), cohort_lines.end(), [](const Line& a, const Line& b) { return a.metric < b.metric; });
    std::vector<std::string>& hosts = cohort_hosts[cohort];
    std::sort(hosts.begin(), hosts.end());
    text << "\n# cohort " << printable_text(index.cohorts.at(cohort), 200) << ": " << hosts.size() << " hosts, "
         << c.surveys[cohort].size() << " surveys\n";
    for (const std::string& pattern : cohort_patterns(cohort, hosts, cohort_hosts, c.lines.size())) {
      text << "[" << pattern << "]\n";
      ++r.sections;
      for (const Line& l : cohort_lines) {
        text << line_text(l) << "\n";
        ++r.metric_lines;
      }
    }
  }
  r.text = text.str();
  return r;
}

int run_baseline(const CommandArgs& args, std::ostream& out) {
  po::options_description desc("Options");
  report::add_command_options(desc, baseline_schema().list());
  const report::ParsedCommand parsed = report::parse_command("history baseline", args, desc, 1, 1);
  if (parsed.help) {
    report::print_command_help(out, history_baseline_command(), desc);
    return 0;
  }
  const std::string& path = parsed.positional[0];
  const BaselineOptions o = report::read_command_options("history baseline", baseline_schema(), parsed);
  if (o.out.empty()) throw UsageError("bwreport history baseline: --out: missing; allowed: a path of the reference file to write");
  const std::string out_path = o.out;
  const long long window = static_cast<long long>(o.window);
  // Checked before the archive is read; replaced as documented (no
  // --force): a text file of ours, never the archive, a link or a device.
  const OutputRules out_rules{"bwreport history baseline: --out", true, {path}, OwnFile::Text};
  check_output_file(out_path, out_rules);

  SqliteDb db = open_archive_to_read(path);
  const ArchiveIndex index = read_archive_index(db);
  const std::vector<model::NodeMetric> known = catalog::all_node_metrics();
  WindowValues w = read_window(db, index, known, static_cast<std::size_t>(window));
  CohortLines c = cohort_lines_of(w, index, o.k);
  if (c.lines.empty())
    throw UsageError("bwreport history baseline: archive '" + printable_text(path, 200) + "' has no valid value of a " +
                     "metric this bwsurvey knows in a complete survey (" + std::to_string(index.surveys.size()) +
                     " complete surveys); nothing to learn a reference from, no file written");
  const ReferenceText r = reference_text(path, window, o.k, w, c, index);
  // What bwsurvey will read must parse: checked before the file is in place.
  model::parse_references(r.text, "history baseline --out", known);

  AtomicFile file(out_path, out_rules);
  file.write(r.text);
  file.commit();
  out << "wrote " << printable_text(out_path, 200) << ": " << c.lines.size() << " cohorts, " << r.sections
      << " sections, " << r.metric_lines << " references from " << w.surveys_used.size() << " surveys\n";
  return 0;
}

}  // namespace

report::ReportCommand history_baseline_command() {
  return {"baseline",
          "history baseline ARCHIVE --out ref.ini [--window N] [--k K]   a --reference file from the archive: per "
          "cohort, the median of its recent surveys and bounds from their spread",
          [](const CommandArgs& args, std::ostream& out) { return run_baseline(args, out); }};
}

}  // namespace bws::history
