#pragma once
// The history archive's SQLite schema (docs/history-archive.md). The HDF5
// survey files stay the source of truth; the archive indexes them by path
// and content hash so that a node's series across surveys is one query.
// Hosts, metrics and cohorts are numbered once (small rows: 10,000 nodes x
// 60 metrics x 100 surveys is 60 M rows). Values are in the metric's unit
// (B/s, s, ...), as in the survey file.
namespace bws::history {

// Version 2 added flag_status. Version 1 archives are read as they are
// (their flags have no retest status) and migrated by the next history add.
inline constexpr int kArchiveSchemaVersion = 2;
inline constexpr int kOldestReadableArchiveVersion = 1;


inline constexpr const char* kArchiveSchemaSql = R"sql(
CREATE TABLE IF NOT EXISTS archive_info(
  key TEXT PRIMARY KEY,            -- 'schema_version', 'created_utc'
  value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS surveys(
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL,              -- absolute path of the file when it was added
  sha256 TEXT NOT NULL UNIQUE,     -- content hash: the same file added twice is one survey
  started_utc TEXT NOT NULL,       -- the survey's start, ISO 8601 UTC (root attribute)
  started_unix_s INTEGER NOT NULL, -- the same, seconds since 1970: the series' order
  job_id TEXT NOT NULL,            -- Slurm job id, '' outside Slurm
  nodes TEXT NOT NULL,             -- the surveyed hosts, comma separated
  n_nodes INTEGER NOT NULL,
  tool_version TEXT NOT NULL,
  commit_id TEXT NOT NULL,
  config_sha256 TEXT NOT NULL,     -- hash of the survey's /config text
  status TEXT NOT NULL,            -- 'complete', or 'partial: <why>' (added with --partial)
  added_utc TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS hosts(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS metrics(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,       -- as /flags names it: 'stream.triad', 'bs.bs4[...]'
  unit TEXT NOT NULL,              -- 'B/s', 's', ...
  higher_is_better INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS cohorts(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS node_values(
  survey_id INTEGER NOT NULL REFERENCES surveys(id),
  host_id INTEGER NOT NULL REFERENCES hosts(id),
  metric_id INTEGER NOT NULL REFERENCES metrics(id),
  value REAL,                      -- the metric's unit; NULL when not valid
  cohort_id INTEGER NOT NULL REFERENCES cohorts(id),
  valid INTEGER NOT NULL,          -- 1: measured and validated
  flagged INTEGER NOT NULL,        -- 1: the survey's /flags names this host and metric
  PRIMARY KEY(host_id, metric_id, survey_id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS node_values_by_survey ON node_values(survey_id, metric_id);
-- Each survey's cohort medians, written by 'history add' (a node's value as
-- a % of its cohort's median without reading all nodes of every survey).
CREATE TABLE IF NOT EXISTS cohort_stats(
  survey_id INTEGER NOT NULL REFERENCES surveys(id),
  metric_id INTEGER NOT NULL REFERENCES metrics(id),
  cohort_id INTEGER NOT NULL REFERENCES cohorts(id),
  median REAL NOT NULL,            -- of the valid values, the metric's unit
  n_valid INTEGER NOT NULL,
  PRIMARY KEY(survey_id, metric_id, cohort_id)) WITHOUT ROWID;
CREATE VIEW IF NOT EXISTS node_series AS
  SELECT s.id AS survey_id, s.started_utc, s.started_unix_s, s.job_id, s.status,
         h.name AS host, m.name AS metric, m.unit, m.higher_is_better,
         v.value, c.name AS cohort, v.valid, v.flagged
  FROM node_values v JOIN surveys s ON s.id = v.survey_id JOIN hosts h ON h.id = v.host_id
       JOIN metrics m ON m.id = v.metric_id JOIN cohorts c ON c.id = v.cohort_id;
)sql";

// What version 2 added, as the migration of a version 1 archive runs it.
inline constexpr const char* kFlagStatusSql = R"sql(
-- The retest's verdict on each flag a survey's /flags names: 'confirmed',
-- 'not confirmed (transient)' or 'not retested'. A health check reads it
-- (bwreport verdict): only a confirmed flag drains a node.
CREATE TABLE IF NOT EXISTS flag_status(
  survey_id INTEGER NOT NULL REFERENCES surveys(id),
  host_id INTEGER NOT NULL REFERENCES hosts(id),
  metric_id INTEGER NOT NULL REFERENCES metrics(id),
  status TEXT NOT NULL,
  PRIMARY KEY(host_id, survey_id, metric_id)) WITHOUT ROWID;
)sql";

}  // namespace bws::history
