#include "history/SurveyIndex.hpp"

#include <ctime>
#include <filesystem>
#include <map>
#include <set>

#include "catalog/Registry.hpp"
#include "core/Errors.hpp"
#include "core/PrintableText.hpp"
#include "core/Sha256.hpp"
#include "h5/ResultFile.hpp"
#include "model/NodeFlags.hpp"
#include "model/NodeMetrics.hpp"
#include "report/SurveyTables.hpp"
#include "report/CampaignFile.hpp"

namespace bws::history {
namespace {

std::string text_or_empty(const h5::ResultReader& file, const std::string& object, const std::string& name) {
  return file.exists(object) && file.has_attribute(object, name) ? file.attribute_text(object, name) : std::string();
}

std::string required_root_text(const h5::ResultReader& file, const std::string& path, const std::string& name) {
  if (!file.has_attribute("/", name))
    throw UsageError("'" + printable_text(path, 200) + "' has no root attribute '" + name +
                     "': not a bwsurvey survey file");
  return file.attribute_text("/", name);
}

// Why the file is not a complete survey ('' when it is).
std::string incomplete_reason(const h5::ResultReader& file, const std::string& status) {
  if (status == "complete") return {};
  std::string why = "status " + status;
  const std::string reason = text_or_empty(file, "/", "abort_reason");
  if (!reason.empty()) why += ": " + reason;
  return printable_text(why, 300);
}

}  // namespace

std::optional<std::int64_t> parse_utc_seconds(const std::string& iso8601) {
  std::tm tm{};
  char zone = 0;
  if (std::sscanf(iso8601.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                  &tm.tm_min, &tm.tm_sec, &zone) != 7 ||
      zone != 'Z')
    return std::nullopt;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<std::int64_t>(::timegm(&tm));
}

SurveyIndex read_survey_index(const std::string& path) {
  const auto file = h5::ResultReader::open(path);
  if (report::is_merged_file(file))
    throw UsageError("'" + printable_text(path, 200) + "' is a merged scaling study; give one run's survey file");
  if (report::is_campaign_file(file))
    throw UsageError("'" + printable_text(path, 200) +
                     "' is a campaign file; add the survey files of its batches (each batch job adds its own with BWS_HISTORY)");
  SurveyIndex index;
  SurveyRow& s = index.survey;
  std::error_code ec;
  s.path = std::filesystem::absolute(path, ec).string();
  s.sha256 = sha256_file_hex(path);
  s.started_utc = required_root_text(file, path, "created_utc");
  const auto started = parse_utc_seconds(s.started_utc);
  if (!started)
    throw UsageError("'" + printable_text(path, 200) + "': created_utc '" +
                     printable_text(s.started_utc, 40) + "' is not an ISO 8601 UTC time (YYYY-MM-DDTHH:MM:SSZ)");
  s.started_unix_s = *started;
  s.job_id = text_or_empty(file, "/provenance", "slurm_job_id");
  s.tool_version = required_root_text(file, path, "tool_version");
  s.commit_id = text_or_empty(file, "/", "git_commit");
  s.config_sha256 = sha256_hex(file.exists("/config") ? file.read_text("/config") : std::string());
  s.incomplete_reason = incomplete_reason(file, required_root_text(file, path, "status"));

  const model::NodeCohorts cohorts = report::read_node_cohorts(file);
  const std::vector<model::NodeMetricValue> values =
      model::node_metric_values(catalog::all_node_metrics(), report::read_metric_tables(file));
  // (host, metric) -> the retest's status; of several rows (a metric
  // flagged by two rules) the one a health check must see: confirmed first.
  std::map<std::pair<std::string, std::string>, std::string> flagged;
  if (file.exists("/flags")) {
    const Table flags = file.read_table("flags");
    for (std::size_t r = 0; r < flags.rows(); ++r) {
      const std::string status =
          flags.has_column("status") ? flags.get_string(r, "status") : std::string(model::kFlagNotRetested);
      std::string& kept = flagged[{flags.get_string(r, "host"), flags.get_string(r, "metric")}];
      if (kept.empty() || status == model::kFlagConfirmed ||
          (status == model::kFlagNotRetested && kept != model::kFlagConfirmed))
        kept = status;
    }
  }
  const auto status_of = [&](const std::string& host, const std::string& metric) {
    const auto it = flagged.find({host, metric});
    return it == flagged.end() ? std::string() : it->second;
  };
  // The survey's nodes: /nodes/table, else whoever has a value.
  std::set<std::string> seen;
  if (file.exists("/nodes/table")) {
    const Table nodes = file.read_table("nodes/table");
    for (std::size_t r = 0; r < nodes.rows(); ++r)
      if (seen.insert(nodes.get_string(r, "host")).second) s.nodes.push_back(nodes.get_string(r, "host"));
  }
  for (const auto& v : values)
    if (seen.insert(v.host).second) s.nodes.push_back(v.host);

  std::map<std::string, const model::NodeMetricValue*> first_of_metric;
  std::set<std::pair<std::string, std::string>> has_value;
  for (const auto& v : values) {
    first_of_metric.emplace(v.metric, &v);
    has_value.emplace(v.host, v.metric);
    const std::string status = status_of(v.host, v.metric);
    index.values.push_back({v.host, v.metric, v.unit, v.higher_is_better, v.value, model::cohort_of(cohorts, v),
                            !status.empty(), status});
  }
  // Nodes that ran without a (finite) value for a metric the others have.
  for (const auto& [metric, example] : first_of_metric)
    for (const std::string& host : s.nodes)
      if (!has_value.count({host, metric})) {
        model::NodeMetricValue missing = *example;
        missing.host = host;
        missing.cohort_detail.clear();
        const std::string status = status_of(host, metric);
        index.values.push_back({host, metric, example->unit, example->higher_is_better, std::nullopt,
                                model::cohort_of(cohorts, missing), !status.empty(), status});
      }
  return index;
}

}  // namespace bws::history
