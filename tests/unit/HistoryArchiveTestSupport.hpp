#pragma once
// Archives with known series for the history command tests: the schema of
// ArchiveSchema.hpp, rows inserted directly (no survey files); and small
// survey files with known values for `history add`.
#include <cmath>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/Table.hpp"
#include "h5/ResultFile.hpp"
#include "history/ArchiveSchema.hpp"
#include "history/Sqlite.hpp"
#include "report/ReportCommand.hpp"

namespace bws::test {

// ---- survey files ---------------------------------------------------------

struct NodeSpec {
  std::string host;
  double triad_Bps;  // NaN: no valid value
  std::string cpu_model = "Test CPU";
  std::int64_t cores = 8;
  std::int64_t memory_bytes = std::int64_t{16} << 30;
};

struct SurveySpec {
  std::string created_utc = "2025-03-01T10:00:00Z";
  std::string status = "complete";
  std::string abort_reason;
  std::string job_id = "4711";
  std::string config = "[flags]\nk = 3.5\n";
  std::vector<NodeSpec> nodes;
  std::vector<std::pair<std::string, std::string>> flags;  // (host, metric)
};

inline void write_survey(const std::string& path, const SurveySpec& spec) {
  auto f = bws::h5::ResultFile::create(path, true);
  f.set_attribute("/", "tool_version", std::string("9.8.7"));
  f.set_attribute("/", "git_commit", std::string("abc123"));
  f.set_attribute("/", "status", spec.status);
  if (!spec.abort_reason.empty()) f.set_attribute("/", "abort_reason", spec.abort_reason);
  f.set_attribute("/", "created_utc", spec.created_utc);
  f.set_attribute("/", "n_nodes", static_cast<std::int64_t>(spec.nodes.size()));
  f.set_attribute("/", "n_ranks", static_cast<std::int64_t>(spec.nodes.size()));
  f.set_attribute("/", "tests", std::string("stream"));
  if (!spec.job_id.empty()) f.set_attribute("/provenance", "slurm_job_id", spec.job_id);
  f.write_text("/config", spec.config);
  bws::Table nodes("nodes/table", {bws::text_column("host", 64), bws::int_column("cores"),
                                   bws::int_column("memory_bytes", "B"), bws::text_column("cpu_model", 64)});
  bws::Table stream("stream/nodes", {bws::text_column("host", 64), bws::text_column("backend", 16),
                                     bws::text_column("kernel", 16), bws::text_column("type", 8),
                                     bws::real_column("bandwidth", "B/s"), bws::int_column("valid")});
  for (const NodeSpec& n : spec.nodes) {
    nodes.add_row({{"host", n.host}, {"cores", n.cores}, {"memory_bytes", n.memory_bytes}, {"cpu_model", n.cpu_model}});
    stream.add_row({{"host", n.host}, {"backend", "cpu"}, {"kernel", "Triad"}, {"type", "double"},
                    {"bandwidth", n.triad_Bps}, {"valid", std::int64_t{std::isfinite(n.triad_Bps) ? 1 : 0}}});
    // Another kernel: not a node metric, never archived.
    stream.add_row({{"host", n.host}, {"backend", "cpu"}, {"kernel", "Copy"}, {"type", "double"},
                    {"bandwidth", 1.0}, {"valid", std::int64_t{1}}});
  }
  f.append(nodes);
  f.append(stream);
  if (!spec.flags.empty()) {
    bws::Table flags("flags", {bws::text_column("host", 64), bws::text_column("metric", 64)});
    for (const auto& [host, metric] : spec.flags) flags.add_row({{"host", host}, {"metric", metric}});
    f.append(flags);
  }
  f.close();
}

// ---- archives -------------------------------------------------------------

class ArchiveBuilder {
 public:
  // An archive of `version` (1: without flag_status, as older releases wrote it).
  explicit ArchiveBuilder(const std::string& path, int version = history::kArchiveSchemaVersion)
      : db_(path, history::SqliteDb::Mode::kReadWriteCreate) {
    db_.exec(history::kArchiveSchemaSql);
    if (version >= 2) db_.exec(history::kFlagStatusSql);
    db_.exec("INSERT INTO archive_info(key, value) VALUES('schema_version', '" + std::to_string(version) + "')");
  }
  // The retest's status of a flagged value (version 2).
  void flag_status(std::int64_t survey_id, const std::string& host, const std::string& metric, const std::string& status) {
    auto st = db_.prepare("INSERT INTO flag_status(survey_id, host_id, metric_id, status) VALUES(?1, ?2, ?3, ?4)");
    st.bind(1, survey_id).bind(2, id_of("hosts", host, hosts_)).bind(3, metrics_.at(metric)).bind(4, status);
    st.step();
  }
  void cohort_median(std::int64_t survey_id, const std::string& metric, const std::string& cohort, double median) {
    auto st = db_.prepare(
        "INSERT INTO cohort_stats(survey_id, metric_id, cohort_id, median, n_valid) VALUES(?1, ?2, ?3, ?4, 8)");
    st.bind(1, survey_id).bind(2, metrics_.at(metric)).bind(3, id_of("cohorts", cohort, cohorts_)).bind(4, median);
    st.step();
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
