#pragma once
// Archives with known series for the history command tests: the schema of
// ArchiveSchema.hpp, rows inserted directly (no survey files).
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "history/ArchiveSchema.hpp"
#include "history/Sqlite.hpp"
#include "report/ReportCommand.hpp"

namespace bws::test {

class ArchiveBuilder {
 public:
  explicit ArchiveBuilder(const std::string& path) : db_(path, history::SqliteDb::Mode::kReadWriteCreate) {
    db_.exec(history::kArchiveSchemaSql);
  }
  // A survey with this id, started `day` days after 2026-01-01 (UTC).
  void survey(std::int64_t id, int day, const std::string& status = "complete") {
    char utc[32];
    std::snprintf(utc, sizeof utc, "2026-%02d-%02dT06:00:00Z", 1 + day / 28, 1 + day % 28);
    auto st = db_.prepare(
        "INSERT INTO surveys(id, path, sha256, started_utc, started_unix_s, job_id, nodes, n_nodes, tool_version, "
        "commit_id, config_sha256, status, added_utc) VALUES(?1, ?2, ?3, ?4, ?5, '', '', 0, 't', 'c', 'x', ?6, ?4)");
    st.bind(1, id).bind(2, "/s" + std::to_string(id) + ".h5").bind(3, "sha" + std::to_string(id)).bind(4, std::string(utc));
    st.bind(5, static_cast<std::int64_t>(1767247200 + day * 86400)).bind(6, status);
    st.step();
    utc_[id] = utc;
  }
  std::string utc(std::int64_t survey_id) const { return utc_.at(survey_id); }
  void value(std::int64_t survey_id, const std::string& host, const std::string& metric, double v,
             const std::string& cohort = "c1", const std::string& unit = "B/s", bool higher_is_better = true,
             bool valid = true, bool flagged = false) {
    auto st = db_.prepare(
        "INSERT INTO node_values(survey_id, host_id, metric_id, value, cohort_id, valid, flagged) "
        "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    st.bind(1, survey_id).bind(2, id_of("hosts", host, hosts_)).bind(3, metric_id(metric, unit, higher_is_better));
    if (valid) st.bind(4, v); else st.bind_null(4);
    st.bind(5, id_of("cohorts", cohort, cohorts_)).bind(6, valid ? 1 : 0).bind(7, flagged ? 1 : 0);
    st.step();
  }
  void begin() { db_.exec("BEGIN"); }
  void commit() { db_.exec("COMMIT"); }

 private:
  std::int64_t id_of(const std::string& table, const std::string& name, std::map<std::string, std::int64_t>& ids) {
    const auto it = ids.find(name);
    if (it != ids.end()) return it->second;
    auto st = db_.prepare("INSERT INTO " + table + "(name) VALUES(?1)");
    st.bind(1, name);
    st.step();
    return ids[name] = db_.last_insert_rowid();
  }
  std::int64_t metric_id(const std::string& name, const std::string& unit, bool higher_is_better) {
    const auto it = metrics_.find(name);
    if (it != metrics_.end()) return it->second;
    auto st = db_.prepare("INSERT INTO metrics(name, unit, higher_is_better) VALUES(?1, ?2, ?3)");
    st.bind(1, name).bind(2, unit).bind(3, higher_is_better ? 1 : 0);
    st.step();
    return metrics_[name] = db_.last_insert_rowid();
  }

  history::SqliteDb db_;
  std::map<std::string, std::int64_t> hosts_, cohorts_, metrics_;
  std::map<std::int64_t, std::string> utc_;
};

struct CommandResult {
  int code = 0;
  std::string out, err;
};

inline CommandResult run_command(const report::ReportCommand& command, const std::vector<std::string>& args) {
  std::ostringstream out, err;
  CommandResult r;
  r.code = report::run_report_command(command, args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

// Tab-separated fields of each line.
inline std::vector<std::vector<std::string>> tsv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (std::size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
      fields.push_back(line.substr(start, tab - start));
    fields.push_back(line.substr(start));
    rows.push_back(fields);
  }
  return rows;
}

}  // namespace bws::test
