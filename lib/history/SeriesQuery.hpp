#pragma once
// Reading series out of the history archive (ArchiveSchema.hpp) without
// loading it whole: 10,000 nodes x 60 metrics x 100 surveys is 60 M rows.
// A node's series are streamed in primary-key order (host, metric, survey),
// one (host, metric) series at a time; the cohorts' medians are read one
// (survey, metric) at a time through the node_values_by_survey index.
// Only complete surveys count (a partial survey's values are not a level),
// and only valid values.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "history/Sqlite.hpp"

namespace bws::history {

struct ArchiveSurvey {
  std::int64_t id = 0;
  std::string started_utc;
  std::int64_t started_unix_s = 0;
};

struct ArchiveMetric {
  std::string name;  // 'stream.triad' or 'name[group]'
  std::string unit;  // 'B/s', 's', ...
  bool higher_is_better = true;
};

// The small tables: complete surveys in series order (started_unix_s, then
// id), hosts, metrics, cohorts by id.
struct ArchiveIndex {
  std::vector<ArchiveSurvey> surveys;
  std::unordered_map<std::int64_t, std::size_t> survey_position;  // survey id -> index in `surveys`
  std::map<std::int64_t, std::string> hosts, cohorts;
  std::map<std::int64_t, ArchiveMetric> metrics;
  std::optional<std::int64_t> host_id(const std::string& name) const;
  std::optional<std::int64_t> metric_id(const std::string& name) const;
};
ArchiveIndex read_archive_index(SqliteDb& db);

// One valid value of a series (not ArchiveQueries.hpp's SeriesPoint, which carries
// the text columns for printing).
struct SeriesSample {
  std::size_t survey = 0;  // position in ArchiveIndex::surveys
  double value = 0;
  std::int64_t cohort_id = 0;
};

// Calls `visit(host_id, metric_id, points)` once per (host, metric) series
// that has a valid value in a complete survey, points in series order.
// `host_ids` empty: every host; `metric_id` empty: every metric.
using SeriesVisitor = std::function<void(std::int64_t, std::int64_t, const std::vector<SeriesSample>&)>;
void for_each_node_series(SqliteDb& db, const ArchiveIndex& index, const std::vector<std::int64_t>& host_ids,
                          std::optional<std::int64_t> metric_id, const SeriesVisitor& visit);

// A cohort's median of one metric in one survey, and of how many nodes.
struct CohortLevel {
  double median = 0;
  std::size_t nodes = 0;
};
struct CohortLevelKey {
  std::size_t survey;
  std::int64_t metric_id, cohort_id;
  bool operator==(const CohortLevelKey& o) const {
    return survey == o.survey && metric_id == o.metric_id && cohort_id == o.cohort_id;
  }
};
struct CohortLevelHash {
  std::size_t operator()(const CohortLevelKey& k) const {
    return std::hash<std::int64_t>()((static_cast<std::int64_t>(k.survey) * 1000003 + k.metric_id) * 1000003 +
                                     k.cohort_id);
  }
};
using CohortLevels = std::unordered_map<CohortLevelKey, CohortLevel, CohortLevelHash>;

// Every cohort's median per complete survey, of `metric_ids` (empty: all):
// one indexed query per (survey, metric), so memory holds one survey's
// values of one metric at a time.
CohortLevels read_cohort_levels(SqliteDb& db, const ArchiveIndex& index, const std::vector<std::int64_t>& metric_ids);

// The valid values of one (survey, metric), with their cohorts.
struct CohortValue {
  std::int64_t cohort_id = 0;
  std::int64_t host_id = 0;
  double value = 0;
  bool flagged = false;  // the survey's /flags named this host and metric
};
std::vector<CohortValue> read_survey_metric(SqliteStatement& statement, std::int64_t survey_id,
                                            std::int64_t metric_id);
// The statement read_survey_metric runs (prepare once, run many).
SqliteStatement prepare_survey_metric(SqliteDb& db);

}  // namespace bws::history
