#include "history/ArchiveStore.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

#include "core/Errors.hpp"
#include "core/PrintableText.hpp"
#include "core/SampleStats.hpp"
#include "core/Timestamps.hpp"
#include "history/ArchiveSchema.hpp"

namespace bws::history {
namespace {

// host/metric/cohort names -> ids, made on first use.
class NameIds {
 public:
  NameIds(SqliteDb& db, const std::string& table)
      : insert_(db.prepare("INSERT OR IGNORE INTO " + table + "(name) VALUES(?1)")),
        select_(db.prepare("SELECT id FROM " + table + " WHERE name = ?1")) {}
  std::int64_t id(const std::string& name) {
    if (auto it = cache_.find(name); it != cache_.end()) return it->second;
    insert_.bind(1, name);
    insert_.step();
    insert_.reset();
    select_.bind(1, name);
    select_.step();
    const std::int64_t id = select_.column_int64(0);
    select_.reset();
    return cache_[name] = id;
  }

 private:
  SqliteStatement insert_, select_;
  std::map<std::string, std::int64_t> cache_;
};

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& n : names) text += (text.empty() ? "" : ",") + n;
  return text;
}

}  // namespace

int require_archive_version(SqliteDb& db) {
  const std::string where = "archive '" + printable_text(db.path(), 200) + "'";
  std::string version;
  try {
    SqliteStatement q = db.prepare("SELECT value FROM archive_info WHERE key = 'schema_version'");
    if (q.step()) version = q.column_text(0);
  } catch (const SqliteError& e) {
    // Only a database without the table is another program's: a locked
    // or unreadable archive is not called foreign.
    if (e.primary_code() != SQLITE_ERROR) throw;
    throw UsageError(where + " is an SQLite database but not a bwsurvey history archive (no archive_info table); "
                     "it is left as it is; give a history archive made by 'bwreport history add'");
  }
  for (int known = kOldestReadableArchiveVersion; known <= kArchiveSchemaVersion; ++known)
    if (version == std::to_string(known)) return known;
  throw UsageError(where + " has schema version '" + printable_text(version, 20) + "'; this bwreport reads versions " +
                   std::to_string(kOldestReadableArchiveVersion) + " to " + std::to_string(kArchiveSchemaVersion) +
                   "; it is left as it is: use the bwreport of the bwsurvey release that wrote it");
}

void prepare_archive(SqliteDb& db) {
  // A file that is not SQLite, or damaged, fails here with a UsageError
  // that says so (Sqlite.cpp); history add has checked it before.
  SqliteStatement q = db.prepare("SELECT count(*) FROM sqlite_master");
  q.step();
  if (q.column_int64(0) != 0) {
    // An older archive gains the tables of the newer versions, in the
    // caller's transaction (history add: all or nothing); its rows stay.
    if (require_archive_version(db) < 2) {
      db.exec(kFlagStatusSql);
      db.prepare("UPDATE archive_info SET value = ?1 WHERE key = 'schema_version'")
          .bind(1, std::to_string(kArchiveSchemaVersion))
          .step();
    }
    return;
  }
  db.exec(kArchiveSchemaSql);
  db.exec(kFlagStatusSql);
  db.prepare("INSERT INTO archive_info(key, value) VALUES('schema_version', ?1)")
      .bind(1, std::to_string(kArchiveSchemaVersion))
      .step();
  db.prepare("INSERT INTO archive_info(key, value) VALUES('created_utc', ?1)").bind(1, utc_now_iso8601()).step();
}

void tune_for_bulk_insert(SqliteDb& db) { db.exec("PRAGMA cache_size = -262144"); }

std::int64_t survey_with_sha256(SqliteDb& db, const std::string& sha256) {
  SqliteStatement q = db.prepare("SELECT id FROM surveys WHERE sha256 = ?1");
  q.bind(1, sha256);
  return q.step() ? q.column_int64(0) : 0;
}

std::int64_t insert_survey(SqliteDb& db, const SurveyIndex& index, const std::string& status,
                           const std::string& added_utc) {
  const SurveyRow& s = index.survey;
  SqliteStatement survey = db.prepare(
      "INSERT INTO surveys(path, sha256, started_utc, started_unix_s, job_id, nodes, n_nodes, tool_version, "
      "commit_id, config_sha256, status, added_utc) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
  survey.bind(1, s.path).bind(2, s.sha256).bind(3, s.started_utc).bind(4, s.started_unix_s).bind(5, s.job_id);
  survey.bind(6, joined(s.nodes)).bind(7, static_cast<std::int64_t>(s.nodes.size())).bind(8, s.tool_version);
  survey.bind(9, s.commit_id).bind(10, s.config_sha256).bind(11, status).bind(12, added_utc);
  survey.step();
  const std::int64_t survey_id = db.last_insert_rowid();

  NameIds hosts(db, "hosts"), cohorts(db, "cohorts");
  SqliteStatement metric_insert =
      db.prepare("INSERT OR IGNORE INTO metrics(name, unit, higher_is_better) VALUES(?1, ?2, ?3)");
  SqliteStatement metric_select = db.prepare("SELECT id FROM metrics WHERE name = ?1");
  std::map<std::string, std::int64_t> metric_ids;
  auto metric_id = [&](const NodeValueRow& v) {
    if (auto it = metric_ids.find(v.metric); it != metric_ids.end()) return it->second;
    metric_insert.bind(1, v.metric).bind(2, v.unit).bind(3, v.higher_is_better ? 1 : 0);
    metric_insert.step();
    metric_insert.reset();
    metric_select.bind(1, v.metric);
    metric_select.step();
    const std::int64_t id = metric_select.column_int64(0);
    metric_select.reset();
    return metric_ids[v.metric] = id;
  };
  SqliteStatement value = db.prepare(
      "INSERT INTO node_values(survey_id, host_id, metric_id, value, cohort_id, valid, flagged) "
      "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)");
  SqliteStatement flag_status =
      db.prepare("INSERT INTO flag_status(survey_id, host_id, metric_id, status) VALUES(?1, ?2, ?3, ?4)");
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<double>> cohort_values;  // (metric, cohort)
  for (const NodeValueRow& v : index.values) {
    const std::int64_t m = metric_id(v), c = cohorts.id(v.cohort);
    value.bind(1, survey_id).bind(2, hosts.id(v.host)).bind(3, m).bind(5, c);
    if (v.value) value.bind(4, *v.value);
    else value.bind_null(4);
    value.bind(6, v.value ? 1 : 0).bind(7, v.flagged ? 1 : 0);
    value.step();
    value.reset();
    if (v.flagged) {
      flag_status.bind(1, survey_id).bind(2, hosts.id(v.host)).bind(3, m).bind(4, v.flag_status);
      flag_status.step();
      flag_status.reset();
    }
    auto& list = cohort_values[{m, c}];
    if (v.value) list.push_back(*v.value);
  }
  SqliteStatement stats = db.prepare(
      "INSERT INTO cohort_stats(survey_id, metric_id, cohort_id, median, n_valid) VALUES(?1, ?2, ?3, ?4, ?5)");
  for (const auto& [key, list] : cohort_values) {
    if (list.empty()) continue;
    stats.bind(1, survey_id).bind(2, key.first).bind(3, key.second).bind(4, median_of(list));
    stats.bind(5, static_cast<std::int64_t>(list.size()));
    stats.step();
    stats.reset();
  }
  return survey_id;
}

}  // namespace bws::history
