#pragma once
// What the history archive keeps of one survey file: the survey's row and
// one row per node and node metric (the metrics the flags use, with the
// flags' cohorts), read from the HDF5 file alone.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bws::history {

struct SurveyRow {
  std::string path;            // absolute
  std::string sha256;          // of the file's bytes
  std::string started_utc;     // root created_utc
  std::int64_t started_unix_s = 0;
  std::string job_id;          // /provenance slurm_job_id, '' outside Slurm
  std::vector<std::string> nodes;
  std::string tool_version;
  std::string commit_id;
  std::string config_sha256;   // of /config ('' hashed when the file has none)
  std::string incomplete_reason;  // '' for a complete survey, else why not ('status aborted: ...')
};

struct NodeValueRow {
  std::string host;
  std::string metric;  // NodeMetricValue.metric: 'stream.triad[double]'
  std::string unit;
  bool higher_is_better = true;
  std::optional<double> value;  // none when not valid
  std::string cohort;
  bool flagged = false;
  std::string flag_status;  // of a flagged value: the /flags row's status ('not retested' without one)
};

struct SurveyIndex {
  SurveyRow survey;
  std::vector<NodeValueRow> values;
};

// Reads `path` (a survey file). UsageError naming the file when it is not
// a bwsurvey HDF5 file, is a merged scaling study, or lacks the root
// attributes a survey has. A node without a value for a metric that other
// nodes of the survey have gets a row with no value (valid = 0).
SurveyIndex read_survey_index(const std::string& path);

// "2025-01-31T12:00:00Z" -> seconds since 1970; nullopt when malformed.
std::optional<std::int64_t> parse_utc_seconds(const std::string& iso8601);

}  // namespace bws::history
