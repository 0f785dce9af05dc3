#pragma once
// bwreport export --prometheus: a survey's per-node metrics in the
// Prometheus text exposition format (version 0.0.4), for node_exporter's
// textfile collector or a Pushgateway. Another reporter over the same
// records the CSV/JSON export reads (the node metric values the flags use),
// so Grafana shows the survey beside a site's other node metrics.
//
// One gauge family per node metric, named bwsurvey_<metric>_<unit>
// (bwsurvey_stream_triad_bytes_per_second), labels host, cohort and, for a
// grouped metric, group ("double"); bwsurvey_flagged{host,metric} 0/1;
// bwsurvey_survey_info{job_id,version,commit} 1 and
// bwsurvey_survey_start_time_seconds. Samples carry no timestamps unless
// asked: node_exporter's textfile collector refuses a file with any
// (docs/design-notes.md, "Prometheus export").
#include <cmath>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "core/Table.hpp"
#include "model/Cohorts.hpp"
#include "model/NodeMetrics.hpp"

namespace bws::h5 {
class ResultReader;
}

namespace bws::report {

// What the survey-level gauges say.
struct PrometheusSurvey {
  std::string job_id;   // /provenance slurm_job_id, "" outside Slurm
  std::string version;  // tool_version
  std::string commit;   // git_commit
  double start_time_seconds = NAN;  // created_utc as Unix seconds; NaN when unknown
};

struct PrometheusRecords {
  std::vector<model::NodeMetricValue> values;
  model::NodeCohorts cohorts;
  Table flags;  // the survey's /flags rows (host, metric, status)
  PrometheusSurvey survey;
};

// "bwsurvey_" + the metric name with every character outside [a-zA-Z0-9_:]
// made '_', + the unit as Prometheus names it: "B/s" -> "_bytes_per_second",
// "s" -> "_seconds", "B" -> "_bytes", "" -> nothing, any other unit
// lower-cased and sanitized the same way ("/" -> "_per_").
std::string prometheus_metric_name(std::string_view metric, std::string_view unit);

// A label value as the exposition format writes it between quotes: '\'
// -> "\\", '"' -> "\"", newline -> "\n"; bytes that are not valid UTF-8
// (Prometheus refuses them) and other control characters become U+FFFD.
std::string prometheus_label_value(std::string_view text);

// "2025-01-31T12:00:00Z" -> Unix seconds; NaN when the text is not that form.
double utc_iso8601_seconds(const std::string& text);

// The records of a survey file: node metric values and cohorts, the flags
// (the survey's own /flags, or computed from its tables when it has none),
// the survey attributes.
PrometheusRecords read_prometheus_records(const h5::ResultReader& file);

// The exposition text. With `timestamps` every sample carries the survey's
// start time in ms (for a Pushgateway or remote write; node_exporter's
// textfile collector rejects such a file). Non-finite values are left out.
void write_prometheus(std::ostream& out, const PrometheusRecords& records, bool timestamps);

}  // namespace bws::report
