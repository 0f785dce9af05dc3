#include "history/ArchiveQueries.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/SampleStats.hpp"

namespace bws::history {
namespace {

// The rows of a bound query selecting id, name, unit, higher_is_better.
std::vector<ArchivedMetric> metric_rows(SqliteStatement& q) {
  std::vector<ArchivedMetric> found;
  while (q.step()) found.push_back({q.column_int64(0), q.column_text(1), q.column_text(2), q.column_int64(3) != 0});
  return found;
}

}  // namespace

std::vector<ArchivedMetric> metrics_named(SqliteDb& db, const std::string& name) {
  SqliteStatement q = db.prepare(
      "SELECT id, name, unit, higher_is_better FROM metrics WHERE name = ?1 OR substr(name, 1, length(?1) + 1) = ?1 || '[' "
      "ORDER BY name");
  q.bind(1, name);
  return metric_rows(q);
}

std::vector<std::string> names_in(SqliteDb& db, const std::string& table, std::size_t limit, std::size_t& total) {
  SqliteStatement count = db.prepare("SELECT count(*) FROM " + table);
  count.step();
  total = static_cast<std::size_t>(count.column_int64(0));
  SqliteStatement q = db.prepare("SELECT name FROM " + table + " ORDER BY name LIMIT ?1");
  q.bind(1, static_cast<std::int64_t>(limit));
  std::vector<std::string> names;
  while (q.step()) names.push_back(q.column_text(0));
  return names;
}

std::int64_t host_id(SqliteDb& db, const std::string& host) {
  SqliteStatement q = db.prepare("SELECT id FROM hosts WHERE name = ?1");
  q.bind(1, host);
  return q.step() ? q.column_int64(0) : 0;
}

std::vector<ArchivedMetric> metrics_of_host(SqliteDb& db, std::int64_t host) {
  // One probe of the primary key per metric (the metrics table is small).
  SqliteStatement q = db.prepare(
      "SELECT m.id, m.name, m.unit, m.higher_is_better FROM metrics m WHERE EXISTS "
      "(SELECT 1 FROM node_values v WHERE v.host_id = ?1 AND v.metric_id = m.id) ORDER BY m.name");
  q.bind(1, host);
  return metric_rows(q);
}

std::vector<SeriesPoint> node_series(SqliteDb& db, std::int64_t host, std::int64_t metric) {
  SqliteStatement q = db.prepare(kNodeSeriesSql);
  q.bind(1, host).bind(2, metric);
  // An archive written without cohort_stats rows (by another tool): the
  // median from that survey's values of the cohort.
  SqliteStatement fallback = db.prepare(
      "SELECT value FROM node_values WHERE survey_id = ?1 AND metric_id = ?2 AND cohort_id = ?3 AND valid = 1");
  std::vector<SeriesPoint> series;
  while (q.step()) {
    SeriesPoint p;
    p.survey_id = q.column_int64(0);
    p.started_utc = q.column_text(1);
    p.job_id = q.column_text(2);
    if (q.column_int64(4) != 0) p.value = q.column_optional_double(3);
    p.flagged = q.column_int64(5) != 0;
    p.cohort_median = q.column_optional_double(6);
    if (!p.cohort_median) {
      fallback.bind(1, p.survey_id).bind(2, metric).bind(3, q.column_int64(7));
      std::vector<double> values;
      while (fallback.step()) values.push_back(fallback.column_double(0));
      fallback.reset();
      if (!values.empty()) p.cohort_median = median_of(values);
    }
    series.push_back(std::move(p));
  }
  return series;
}

std::vector<Mover> movers(SqliteDb& db, std::int64_t metric, std::size_t top) {
  std::map<std::int64_t, std::pair<std::int64_t, std::string>> survey_order;  // id -> (started_unix_s, utc)
  {
    SqliteStatement q = db.prepare("SELECT id, started_unix_s, started_utc FROM surveys");
    while (q.step()) survey_order[q.column_int64(0)] = {q.column_int64(1), q.column_text(2)};
  }
  // Hosts outer, the primary key (host_id, metric_id) inner: only this metric's rows are read.
  SqliteStatement q = db.prepare(kMoversSql);
  q.bind(1, metric);
  std::vector<Mover> found;
  std::string host;
  std::vector<std::pair<std::pair<std::int64_t, std::int64_t>, double>> points;  // ((started, id), value)
  auto close_host = [&] {
    if (points.size() >= 2) {
      std::sort(points.begin(), points.end());
      std::vector<double> past;
      for (std::size_t i = 0; i + 1 < points.size(); ++i) past.push_back(points[i].second);
      Mover m;
      m.host = host;
      m.latest = points.back().second;
      m.past_median = median_of(past);
      m.move_percent = m.past_median != 0 ? 100.0 * (m.latest - m.past_median) / std::fabs(m.past_median) : 0.0;
      m.past_surveys = static_cast<int>(past.size());
      m.latest_utc = survey_order[points.back().first.second].second;
      found.push_back(std::move(m));
    }
    points.clear();
  };
  while (q.step()) {
    std::string name = q.column_text(0);
    if (name != host) {
      close_host();
      host = std::move(name);
    }
    const std::int64_t survey = q.column_int64(1);
    points.push_back({{survey_order[survey].first, survey}, q.column_double(2)});
  }
  close_host();
  std::sort(found.begin(), found.end(), [](const Mover& a, const Mover& b) {
    const double ma = std::fabs(a.move_percent), mb = std::fabs(b.move_percent);
    return ma != mb ? ma > mb : a.host < b.host;
  });
  if (found.size() > top) found.resize(top);
  return found;
}

}  // namespace bws::history
