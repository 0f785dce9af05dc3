#include "history/SeriesQuery.hpp"

#include <algorithm>

#include "core/Errors.hpp"
#include "core/PrintableText.hpp"
#include "core/SampleStats.hpp"

namespace bws::history {

std::optional<std::int64_t> ArchiveIndex::host_id(const std::string& name) const {
  for (const auto& [id, host] : hosts)
    if (host == name) return id;
  return std::nullopt;
}

std::optional<std::int64_t> ArchiveIndex::metric_id(const std::string& name) const {
  for (const auto& [id, metric] : metrics)
    if (metric.name == name) return id;
  return std::nullopt;
}

ArchiveIndex read_archive_index(SqliteDb& db) {
  // A file that is not an archive (not SQLite, or without its tables) is
  // the user's mistake: one line, exit 2.
  std::size_t tables = 0;
  try {
    SqliteStatement names = db.prepare(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('surveys', 'hosts', 'metrics', "
        "'cohorts', 'node_values')");
    if (names.step()) tables = static_cast<std::size_t>(names.column_int64(0));
  } catch (const RuntimeFailure&) {
    tables = 0;
  }
  if (tables != 5)
    throw UsageError("archive '" + printable_text(db.path(), 200) +
                     "' is not a history archive (no surveys, hosts, metrics, cohorts and node_values tables); "
                     "give one made by 'bwreport history add'");
  ArchiveIndex index;
  SqliteStatement surveys = db.prepare(
      "SELECT id, started_utc, started_unix_s FROM surveys WHERE status = 'complete' ORDER BY started_unix_s, id");
  while (surveys.step()) {
    index.survey_position[surveys.column_int64(0)] = index.surveys.size();
    index.surveys.push_back({surveys.column_int64(0), surveys.column_text(1), surveys.column_int64(2)});
  }
  SqliteStatement hosts = db.prepare("SELECT id, name FROM hosts");
  while (hosts.step()) index.hosts[hosts.column_int64(0)] = hosts.column_text(1);
  SqliteStatement cohorts = db.prepare("SELECT id, name FROM cohorts");
  while (cohorts.step()) index.cohorts[cohorts.column_int64(0)] = cohorts.column_text(1);
  SqliteStatement metrics = db.prepare("SELECT id, name, unit, higher_is_better FROM metrics");
  while (metrics.step())
    index.metrics[metrics.column_int64(0)] = {metrics.column_text(1), metrics.column_text(2),
                                              metrics.column_int64(3) != 0};
  return index;
}

namespace {

// Rows of one statement (host_id, metric_id, survey_id, value, cohort_id),
// in (host, metric) groups, each group sorted into series order.
void visit_groups(SqliteStatement& rows, const ArchiveIndex& index, const SeriesVisitor& visit) {
  std::vector<SeriesSample> points;
  std::int64_t host = -1, metric = -1;
  auto flush = [&] {
    if (points.empty()) return;
    // Survey ids come in id order; the series' order is the surveys' start.
    std::sort(points.begin(), points.end(), [](const SeriesSample& a, const SeriesSample& b) { return a.survey < b.survey; });
    visit(host, metric, points);
    points.clear();
  };
  while (rows.step()) {
    const std::int64_t h = rows.column_int64(0), m = rows.column_int64(1);
    if (h != host || m != metric) {
      flush();
      host = h;
      metric = m;
    }
    const auto position = index.survey_position.find(rows.column_int64(2));
    if (position == index.survey_position.end()) continue;  // a partial survey
    points.push_back({position->second, rows.column_double(3), rows.column_int64(4)});
  }
  flush();
}

constexpr const char* kSeriesColumns =
    "SELECT host_id, metric_id, survey_id, value, cohort_id FROM node_values "
    "WHERE valid = 1 AND value IS NOT NULL";

}  // namespace

void for_each_node_series(SqliteDb& db, const ArchiveIndex& index, const std::vector<std::int64_t>& host_ids,
                          std::optional<std::int64_t> metric_id, const SeriesVisitor& visit) {
  const std::string metric_clause = metric_id ? " AND metric_id = ?1" : "";
  if (host_ids.empty()) {
    // One pass over the primary key: rows arrive grouped by (host, metric).
    SqliteStatement rows = db.prepare(std::string(kSeriesColumns) + metric_clause + " ORDER BY host_id, metric_id");
    if (metric_id) rows.bind(1, *metric_id);
    visit_groups(rows, index, visit);
    return;
  }
  SqliteStatement rows =
      db.prepare(std::string(kSeriesColumns) + metric_clause + " AND host_id = ?2 ORDER BY host_id, metric_id");
  for (const std::int64_t host : host_ids) {
    rows.reset();
    if (metric_id) rows.bind(1, *metric_id);
    rows.bind(2, host);
    visit_groups(rows, index, visit);
  }
}

SqliteStatement prepare_survey_metric(SqliteDb& db) {
  return db.prepare(
      "SELECT cohort_id, host_id, value, flagged FROM node_values "
      "WHERE survey_id = ?1 AND metric_id = ?2 AND valid = 1 AND value IS NOT NULL");
}

std::vector<CohortValue> read_survey_metric(SqliteStatement& statement, std::int64_t survey_id,
                                            std::int64_t metric_id) {
  statement.reset();
  statement.bind(1, survey_id).bind(2, metric_id);
  std::vector<CohortValue> values;
  while (statement.step())
    values.push_back({statement.column_int64(0), statement.column_int64(1), statement.column_double(2),
                      statement.column_int64(3) != 0});
  return values;
}

CohortLevels read_cohort_levels(SqliteDb& db, const ArchiveIndex& index, const std::vector<std::int64_t>& metric_ids) {
  std::vector<std::int64_t> metrics = metric_ids;
  if (metrics.empty())
    for (const auto& [id, m] : index.metrics) metrics.push_back(id);
  SqliteStatement statement = prepare_survey_metric(db);
  // `history add` stores each survey's cohort medians (cohort_stats, its
  // primary key: a few rows per survey and metric); an archive written
  // without them (another tool, a test) has them computed from the values.
  SqliteStatement stored = db.prepare(
      "SELECT cohort_id, median, n_valid FROM cohort_stats WHERE survey_id = ?1 AND metric_id = ?2");
  CohortLevels levels;
  std::map<std::int64_t, std::vector<double>> by_cohort;
  for (std::size_t s = 0; s < index.surveys.size(); ++s)
    for (const std::int64_t metric : metrics) {
      stored.bind(1, index.surveys[s].id).bind(2, metric);
      bool have_stored = false;
      while (stored.step()) {
        have_stored = true;
        levels[{s, metric, stored.column_int64(0)}] = {stored.column_double(1),
                                                       static_cast<std::size_t>(stored.column_int64(2))};
      }
      stored.reset();
      if (have_stored) continue;
      by_cohort.clear();
      for (const CohortValue& v : read_survey_metric(statement, index.surveys[s].id, metric))
        by_cohort[v.cohort_id].push_back(v.value);
      for (const auto& [cohort, values] : by_cohort)
        levels[{s, metric, cohort}] = {median_of(values), values.size()};
    }
  return levels;
}

}  // namespace bws::history
