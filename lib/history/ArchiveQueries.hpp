#pragma once
// What `history show` asks the archive: a node's series per metric (with
// each survey's cohort median) and the nodes whose latest value moved most
// against their own past. Each query reads by the primary key
// (host_id, metric_id, survey_id), so it touches only the rows it returns
// (docs/history-archive.md, EXPLAIN QUERY PLAN in bench/history_archive_scale).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "history/Sqlite.hpp"

namespace bws::history {

// The two queries that read many rows (bench/history_archive_scale shows
// their EXPLAIN QUERY PLAN): ?1 host id, ?2 metric id; ?1 metric id.
inline constexpr const char* kNodeSeriesSql =
    "SELECT s.id, s.started_utc, s.job_id, v.value, v.valid, v.flagged, c.median, v.cohort_id "
    "FROM node_values v JOIN surveys s ON s.id = v.survey_id "
    "LEFT JOIN cohort_stats c ON c.survey_id = v.survey_id AND c.metric_id = v.metric_id AND c.cohort_id = v.cohort_id "
    "WHERE v.host_id = ?1 AND v.metric_id = ?2 ORDER BY s.started_unix_s, s.id";
// Hosts outer, the primary key (host_id, metric_id) inner: only this metric's rows are read.
inline constexpr const char* kMoversSql =
    "SELECT h.name, v.survey_id, v.value FROM hosts h CROSS JOIN node_values v "
    "ON v.host_id = h.id AND v.metric_id = ?1 WHERE v.valid = 1 ORDER BY h.id";

struct ArchivedMetric {
  std::int64_t id = 0;
  std::string name, unit;
  bool higher_is_better = true;
};

// The archive's metrics named `name`, or grouped under it ("stream.triad"
// matches "stream.triad[double]" and "stream.triad[float]"); sorted by name.
std::vector<ArchivedMetric> metrics_named(SqliteDb& db, const std::string& name);
// All names of a table ('hosts', 'metrics'), sorted, at most `limit`, and their count.
std::vector<std::string> names_in(SqliteDb& db, const std::string& table, std::size_t limit, std::size_t& total);
// The host's id, or 0.
std::int64_t host_id(SqliteDb& db, const std::string& host);
// The metrics the host has values of.
std::vector<ArchivedMetric> metrics_of_host(SqliteDb& db, std::int64_t host);

struct SeriesPoint {
  std::int64_t survey_id = 0;
  std::string started_utc, job_id;
  std::optional<double> value;          // none: not valid
  std::optional<double> cohort_median;  // that survey's, of the node's cohort
  bool flagged = false;
};
// In survey order (started_unix_s, then id).
std::vector<SeriesPoint> node_series(SqliteDb& db, std::int64_t host, std::int64_t metric);

struct Mover {
  std::string host;
  double latest = 0, past_median = 0;
  double move_percent = 0;  // (latest - past median) / past median x 100
  int past_surveys = 0;
  std::string latest_utc;
};
// Every host with a valid latest value and at least one valid earlier one,
// sorted by |move_percent| (largest first, then host name); at most `top`.
std::vector<Mover> movers(SqliteDb& db, std::int64_t metric, std::size_t top);

}  // namespace bws::history
