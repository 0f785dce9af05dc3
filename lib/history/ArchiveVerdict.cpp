#include "history/ArchiveVerdict.hpp"

#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "core/FileGuard.hpp"
#include "history/ArchiveQueries.hpp"
#include "model/NodeFlags.hpp"

namespace bws::history {
namespace {

// The latest survey (by start, then id) with a row of the host: a probe of
// node_values' primary key (host_id, ...) and the surveys' ids.
constexpr const char* kLatestSurveySql =
    "SELECT s.id, s.started_utc, s.started_unix_s, s.job_id FROM node_values v JOIN surveys s ON s.id = v.survey_id "
    "WHERE v.host_id = ?1 ORDER BY s.started_unix_s DESC, s.id DESC LIMIT 1";
// The host's flagged values in that survey, with the cohort's median and
// (version 2) the retest's status.
constexpr const char* kFlagsSql =
    "SELECT m.name, m.unit, v.value, c.median, f.status FROM node_values v JOIN metrics m ON m.id = v.metric_id "
    "LEFT JOIN cohort_stats c ON c.survey_id = v.survey_id AND c.metric_id = v.metric_id AND c.cohort_id = v.cohort_id "
    "LEFT JOIN flag_status f ON f.host_id = v.host_id AND f.survey_id = v.survey_id AND f.metric_id = v.metric_id "
    "WHERE v.host_id = ?1 AND v.survey_id = ?2 AND v.flagged = 1";
constexpr const char* kFlagsVersion1Sql =
    "SELECT m.name, m.unit, v.value, c.median, NULL FROM node_values v JOIN metrics m ON m.id = v.metric_id "
    "LEFT JOIN cohort_stats c ON c.survey_id = v.survey_id AND c.metric_id = v.metric_id AND c.cohort_id = v.cohort_id "
    "WHERE v.host_id = ?1 AND v.survey_id = ?2 AND v.flagged = 1";

}  // namespace

ArchivedStanding archived_standing(SqliteDb& db, int version, const std::string& host) {
  ArchivedStanding out{{}, model::make_flags_table()};
  const std::int64_t id = host_id(db, host);
  if (id == 0) return out;
  SqliteStatement latest = db.prepare(kLatestSurveySql);
  latest.bind(1, id);
  if (!latest.step()) return out;
  const std::int64_t survey = latest.column_int64(0);
  out.survey.created_utc = latest.column_text(1);
  out.survey.created_unix_s = latest.column_int64(2);
  out.survey.id = latest.column_text(3);
  if (out.survey.id.empty()) out.survey.id = std::string("#").append(std::to_string(survey));
  out.survey.has_node = true;

  SqliteStatement flags = db.prepare(version >= 2 ? kFlagsSql : kFlagsVersion1Sql);
  flags.bind(1, id).bind(2, survey);
  while (flags.step()) {
    const double value = flags.is_null(2) ? std::nan("") : flags.column_double(2);
    const double median = flags.is_null(3) ? std::nan("") : flags.column_double(3);
    std::vector<Value> row;
    for (const Column& c : out.flags.columns()) {
      if (c.name == "host") row.emplace_back(host);
      else if (c.name == "metric") row.emplace_back(flags.column_text(0));
      else if (c.name == "unit") row.emplace_back(flags.column_text(1));
      else if (c.name == "value") row.emplace_back(value);
      else if (c.name == "median") row.emplace_back(median);
      else if (c.name == "percent_of_median") row.emplace_back(100.0 * value / median);
      else if (c.name == "status")
        row.emplace_back(flags.is_null(4) ? std::string(model::kFlagNotRetested) : flags.column_text(4));
      else if (c.type == ColumnType::String) row.emplace_back("");
      else if (c.type == ColumnType::Float64) row.emplace_back(std::nan(""));
      else row.emplace_back(std::int64_t{0});
    }
    out.flags.add_row_values(std::move(row));
  }
  return out;
}

bool is_sqlite_file(const std::string& path) {
  // Opened as every input is (a FIFO or device refused, never read).
  const std::string head = InputFile::open("FILE", path).read_prefix(16);
  return head.size() == 16 && std::memcmp(head.data(), "SQLite format 3\0", 16) == 0;
}

}  // namespace bws::history
