// bwreport history changes ARCHIVE: the steps in each node's own series of
// each metric (model::find_change_points), and apart from them the steps of
// a cohort's median series: a change on every node of a cohort at the same
// survey (firmware, a kernel, a survey run while the machine was loaded).
// A node's series is judged relative to its cohort's median in each survey
// (when the cohort has >= 3 nodes there), so such a site-wide step is one
// survey-wide change, not one change per node (docs/design-notes.md,
// "Node changes vs site-wide changes").
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <ostream>
#include <set>

#include <boost/program_options/options_description.hpp>

#include "core/Errors.hpp"
#include "core/OptionText.hpp"
#include "core/PrintableText.hpp"
#include "core/SampleStats.hpp"
#include "history/ArchiveAccess.hpp"
#include "history/HistoryCommands.hpp"
#include "history/SeriesQuery.hpp"
#include "model/ChangePoints.hpp"
#include "report/CommandOptions.hpp"

namespace po = boost::program_options;

namespace bws::history {
namespace {

using report::CommandArgs;

constexpr const char* kCommand = "history changes";
// A cohort median needs this many nodes in a survey to stand for the
// cohort's level (with 2, one node's own step moves it by half).
constexpr std::size_t kMinCohortNodes = 3;

struct Change {
  std::string host;  // the node, or the cohort for a survey-wide change
  std::string metric;
  std::string unit;
  std::size_t survey = 0;     // position in the index's surveys: the first at the new level
  double change_fraction = 0;  // node: against its cohort when relative; cohort: its median's step
  double confidence = 0;
  double before = 0, after = 0;  // levels in the metric's unit (the node's own values)
};

enum class ChangesFormat { Text, Tsv };

struct ChangesOptions : TypedOptions {
  std::vector<std::string> nodes;
  std::string metric;
  double min_change = 0.05;
  ChangesFormat format = ChangesFormat::Text;
};

const OptionSchema<ChangesOptions>& changes_schema() {
  static const OptionSchema<ChangesOptions> schema({
      bind_option(text_list_option("node", "host", "only this host's series (default: every host)"),
                  &ChangesOptions::nodes),
      bind_option(text_option("metric", "", "only this metric, as the archive names it (default: every metric)"),
                  &ChangesOptions::metric),
      bind_option(real_option("min-change", "0.05", 0, 10, "",
                              "smallest step reported, a fraction of the level before (0.05: steps of 5 % and more)")
                      .above_min(),
                  &ChangesOptions::min_change),
      bind_option(one_of_option("format", "text", {"text", "tsv"}, "text, or tsv (one row per change, raw units)")
                      .called("format"),
                  &ChangesOptions::format),
  });
  return schema;
}

// The medians of points[a, b) (raw values).
double segment_median(const std::vector<double>& values, std::size_t a, std::size_t b) {
  return median_of(std::span<const double>(values.data() + a, b - a));
}

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::string level_text(double v, const std::string& unit) {
  char buf[64];
  if (unit == "B/s")
    std::snprintf(buf, sizeof buf, "%.2f", v / 1e9);
  else
    std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string unit_text(const std::string& unit) { return unit == "B/s" ? "GB/s" : unit; }

std::string some_names(const std::vector<std::string>& names) {
  std::string list;
  for (std::size_t i = 0; i < names.size() && i < 5; ++i) list += (i ? ", " : "") + printable_text(names[i], 64);
  if (names.size() > 5) list += ", ...";
  return list.empty() ? "(none)" : list;
}

// Change points of one node series: relative to the cohort's median where
// every survey's cohort has kMinCohortNodes, else the node's own values.
void node_changes(const ArchiveIndex& index, const CohortLevels& levels, std::int64_t metric_id,
                  const std::string& host, const std::vector<SeriesSample>& points,
                  const model::ChangePointOptions& cp_options, std::vector<Change>& out, std::size_t& relative) {
  std::vector<double> raw, judged;
  raw.reserve(points.size());
  judged.reserve(points.size());
  bool is_relative = true;
  for (const SeriesSample& p : points) {
    raw.push_back(p.value);
    const auto level = levels.find({p.survey, metric_id, p.cohort_id});
    if (level == levels.end() || level->second.nodes < kMinCohortNodes || !(level->second.median > 0))
      is_relative = false;
    else
      judged.push_back(p.value / level->second.median);
  }
  if (!is_relative) judged = raw;
  else ++relative;
  const std::vector<model::ChangePoint> found = model::find_change_points(judged, cp_options);
  const ArchiveMetric& metric = index.metrics.at(metric_id);
  for (std::size_t i = 0; i < found.size(); ++i) {
    const std::size_t from = i == 0 ? 0 : found[i - 1].index, to = i + 1 < found.size() ? found[i + 1].index : raw.size();
    Change c;
    c.host = host;
    c.metric = metric.name;
    c.unit = metric.unit;
    c.survey = points[found[i].index].survey;
    c.change_fraction = found[i].change_fraction;
    c.confidence = found[i].confidence;
    c.before = segment_median(raw, from, found[i].index);
    c.after = segment_median(raw, found[i].index, to);
    out.push_back(c);
  }
}

// Change points of each selected cohort's median series.
std::vector<Change> survey_wide_changes(const ArchiveIndex& index, const CohortLevels& levels,
                                        const std::set<std::int64_t>& cohorts, const model::ChangePointOptions& cp_options) {
  std::map<std::pair<std::int64_t, std::int64_t>, std::map<std::size_t, double>> series;  // (metric, cohort) -> survey -> median
  for (const auto& [key, level] : levels)
    if (level.nodes >= kMinCohortNodes && (cohorts.empty() || cohorts.count(key.cohort_id)))
      series[{key.metric_id, key.cohort_id}][key.survey] = level.median;
  std::vector<Change> changes;
  for (const auto& [key, by_survey] : series) {
    std::vector<double> values;
    std::vector<std::size_t> surveys;
    for (const auto& [s, v] : by_survey) {
      surveys.push_back(s);
      values.push_back(v);
    }
    const ArchiveMetric& metric = index.metrics.at(key.first);
    for (const model::ChangePoint& cp : model::find_change_points(values, cp_options))
      changes.push_back({index.cohorts.at(key.second), metric.name, metric.unit, surveys[cp.index], cp.change_fraction,
                         cp.confidence, cp.before_median, cp.after_median});
  }
  return changes;
}

void sort_changes(const ArchiveIndex& index, std::vector<Change>& changes) {
  std::stable_sort(changes.begin(), changes.end(), [&](const Change& a, const Change& b) {
    if (a.survey != b.survey) return a.survey < b.survey;
    if (std::fabs(a.change_fraction) != std::fabs(b.change_fraction))
      return std::fabs(a.change_fraction) > std::fabs(b.change_fraction);
    return a.host != b.host ? a.host < b.host : a.metric < b.metric;
  });
  (void)index;
}

void print_tsv(std::ostream& out, const ArchiveIndex& index, const std::vector<Change>& changes, const char* host_prefix) {
  for (const Change& c : changes) {
    const ArchiveSurvey& s = index.surveys[c.survey];
    // Names from the archive as printable text: a tab or a line break in a
    // host name cannot add a column or a row.
    out << host_prefix << printable_text(c.host) << '\t' << printable_text(c.metric) << '\t'
        << printable_text(s.started_utc) << '\t' << s.id << '\t' << number(c.change_fraction * 100) << '\t'
        << number(c.confidence) << '\t' << number(c.before) << '\t' << number(c.after) << '\t'
        << printable_text(c.unit) << '\n';
  }
}

void print_text(std::ostream& out, const ArchiveIndex& index, const std::vector<Change>& changes, const char* what) {
  if (changes.empty()) {
    out << "  none\n";
    return;
  }
  for (const Change& c : changes) {
    const ArchiveSurvey& s = index.surveys[c.survey];
    char pct[32], conf[32];
    std::snprintf(pct, sizeof pct, "%+.1f %%", c.change_fraction * 100);
    std::snprintf(conf, sizeof conf, "%.3f", c.confidence);
    out << "  " << printable_text(s.started_utc, 40) << "  " << what << printable_text(c.host, 128) << "  " << printable_text(c.metric, 128)
        << "  " << pct << "  confidence " << conf << "  " << level_text(c.before, c.unit) << " -> "
        << level_text(c.after, c.unit) << " " << printable_text(unit_text(c.unit), 40) << "  (survey " << s.id << ")\n";
  }
}

// --node names, as the archive's host ids (each once); a name the archive
// does not hold is a usage error listing some it does.
std::vector<std::int64_t> named_hosts(const ArchiveIndex& index, const std::vector<std::string>& nodes,
                                      const std::string& path) {
  std::vector<std::int64_t> host_ids;
  for (const std::string& node : nodes) {
    const auto id = index.host_id(node);
    if (!id) {
      std::vector<std::string> names;
      for (const auto& [i, h] : index.hosts) names.push_back(h);
      throw UsageError("bwreport history changes: --node " + quoted_input(node) + ": no such host in archive '" +
                       printable_text(path, 200) + "'; allowed: one of its " + std::to_string(names.size()) +
                       " hosts (" + some_names(names) + ")");
    }
    if (std::find(host_ids.begin(), host_ids.end(), *id) == host_ids.end()) host_ids.push_back(*id);
  }
  return host_ids;
}

// --metric as the archive's metric id; none when not given.
std::optional<std::int64_t> named_metric(const ArchiveIndex& index, const std::string& metric,
                                         const std::string& path) {
  if (metric.empty()) return std::nullopt;
  const auto metric_id = index.metric_id(metric);
  if (!metric_id) {
    std::vector<std::string> names;
    for (const auto& [i, m] : index.metrics) names.push_back(m.name);
    throw UsageError("bwreport history changes: --metric " + quoted_input(metric) + ": not in archive '" +
                     printable_text(path, 200) + "'; allowed: one of its " + std::to_string(names.size()) +
                     " metrics (" + some_names(names) + ")");
  }
  return metric_id;
}

int run_changes(const CommandArgs& args, std::ostream& out) {
  po::options_description desc("Options");
  report::add_command_options(desc, changes_schema().list());
  const report::ParsedCommand parsed = report::parse_command(kCommand, args, desc, 1, 1);
  if (parsed.help) {
    report::print_command_help(out, history_changes_command(), desc);
    return 0;
  }
  const ChangesOptions options = report::read_command_options(kCommand, changes_schema(), parsed);
  const std::string& path = parsed.positional[0];
  SqliteDb db = open_archive_to_read(path);
  const ArchiveIndex index = read_archive_index(db);

  const std::vector<std::int64_t> host_ids = named_hosts(index, options.nodes, path);
  const std::optional<std::int64_t> metric_id = named_metric(index, options.metric, path);
  std::vector<std::int64_t> metric_ids;
  if (metric_id) metric_ids.push_back(*metric_id);

  model::ChangePointOptions cp_options;
  cp_options.min_change_fraction = options.min_change;
  // Pass 1: every cohort's median per survey and metric; pass 2: each node
  // series, streamed, judged against them.
  const CohortLevels levels = read_cohort_levels(db, index, metric_ids);
  std::vector<Change> node_found;
  std::set<std::int64_t> node_cohorts;
  std::size_t series = 0, relative = 0;
  for_each_node_series(db, index, host_ids, metric_id,
                       [&](std::int64_t host, std::int64_t metric, const std::vector<SeriesSample>& points) {
                         ++series;
                         for (const SeriesSample& p : points) node_cohorts.insert(p.cohort_id);
                         node_changes(index, levels, metric, index.hosts.at(host), points, cp_options, node_found,
                                      relative);
                       });
  // With --node, the survey-wide changes of those nodes' cohorts only.
  std::vector<Change> wide_found =
      survey_wide_changes(index, levels, host_ids.empty() ? std::set<std::int64_t>() : node_cohorts, cp_options);
  if (!host_ids.empty() && node_cohorts.empty()) wide_found.clear();
  sort_changes(index, node_found);
  sort_changes(index, wide_found);

  if (options.format == ChangesFormat::Tsv) {
    out << kChangesTsvHeader;
    print_tsv(out, index, node_found, "");
    // A survey-wide change is a cohort's row, "cohort:NAME", in the full
    // listing; a listing of named nodes (--node) holds their rows alone.
    if (host_ids.empty()) print_tsv(out, index, wide_found, "cohort:");
    return 0;
  }
  out << "history changes: archive '" << printable_text(path, 200) << "': " << index.surveys.size()
      << " complete surveys, " << series << " node series examined (" << relative
      << " relative to their cohort's median per survey, " << series - relative
      << " on their own values: a cohort of < " << kMinCohortNodes << " nodes); steps >= "
      << number(options.min_change * 100) << " %\n";
  out << "node changes: " << node_found.size() << " (size against the cohort's median; levels are the node's own)\n";
  print_text(out, index, node_found, "");
  out << "survey-wide changes: " << wide_found.size()
      << " (a cohort's median moved: every node at once, e.g. firmware, a kernel, a loaded survey)\n";
  print_text(out, index, wide_found, "cohort ");
  return 0;
}

}  // namespace

report::ReportCommand history_changes_command() {
  return {"changes",
          "history changes ARCHIVE [--node HOST]... [--metric M] [--min-change F] [--format text|tsv]   steps in "
          "each node's series, and survey-wide steps",
          [](const CommandArgs& args, std::ostream& out) { return run_changes(args, out); }};
}

}  // namespace bws::history
