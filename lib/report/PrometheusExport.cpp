#include "report/PrometheusExport.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <map>
#include <ostream>
#include <sstream>

#include <boost/program_options/variables_map.hpp>

#include "catalog/Registry.hpp"
#include "h5/ResultFile.hpp"
#include "model/NodeFlags.hpp"
#include "report/SurveyTables.hpp"
#include "core/PrintableText.hpp"

namespace bws::report {
namespace {

void append_sanitized(std::string& out, std::string_view text) {
  for (const char c : text)
    out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' ? c : '_';
}

std::string unit_suffix(std::string_view unit) {
  if (unit.empty()) return {};
  if (unit == "B/s") return "_bytes_per_second";
  if (unit == "s") return "_seconds";
  if (unit == "B") return "_bytes";
  std::string lower;
  for (std::size_t i = 0; i < unit.size(); ++i) {
    if (unit[i] == '/') {
      lower += "_per_";
      continue;
    }
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(unit[i])));
  }
  std::string out = "_";
  append_sanitized(out, lower);
  return out;
}

// The exposition format's escapes: '\\' and newline always, '"' in label
// values only (HELP text keeps it). Invalid UTF-8 (Prometheus refuses it)
// and other control characters (a terminal showing the file would obey
// them: text from the file never reaches stdout raw) become U+FFFD.
std::string escaped(std::string_view text, bool quote) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_sequence_length(text, i);
    const auto byte = static_cast<unsigned char>(text[i]);
    if (n == 0 || (n == 1 && ((byte < 0x20 && byte != '\n') || byte == 0x7f))) {
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    if (n == 1 && text[i] == '\\') out += "\\\\";
    else if (n == 1 && text[i] == '"' && quote) out += "\\\"";
    else if (n == 1 && text[i] == '\n') out += "\\n";
    else out.append(text.substr(i, n));
    i += n;
  }
  return out;
}

std::string help_text(std::string_view text) { return escaped(text, false); }

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

using Labels = std::vector<std::pair<std::string, std::string>>;

std::string labels_text(const Labels& labels) {
  if (labels.empty()) return {};
  std::string out = "{";
  for (std::size_t i = 0; i < labels.size(); ++i)
    out += (i ? "," : "") + labels[i].first + "=\"" + prometheus_label_value(labels[i].second) + "\"";
  return out + "}";
}

struct Family {
  std::string help;
  std::vector<std::pair<Labels, double>> samples;
};

// Families in order of first appearance.
struct Families {
  std::vector<std::string> order;
  std::map<std::string, Family> by_name;
  Family& get(const std::string& name, const std::string& help) {
    auto [it, added] = by_name.try_emplace(name, Family{help, {}});
    if (added) order.push_back(name);
    return it->second;
  }
};

std::string group_of(const model::NodeMetricValue& v) {
  // metric is "name[group]" for a grouped metric, else the name.
  if (v.metric.size() < v.name.size() + 2 || v.metric.back() != ']') return {};
  return v.metric.substr(v.name.size() + 1, v.metric.size() - v.name.size() - 2);
}

std::string text_attribute(const h5::ResultReader& file, const std::string& object, const std::string& name) {
  return file.exists(object) && file.has_attribute(object, name) ? file.attribute_text(object, name) : std::string();
}

}  // namespace

std::string prometheus_metric_name(std::string_view metric, std::string_view unit) {
  std::string out = "bwsurvey_";
  append_sanitized(out, metric);
  return out + unit_suffix(unit);
}

std::string prometheus_label_value(std::string_view text) { return escaped(text, true); }

double utc_iso8601_seconds(const std::string& text) {
  std::tm tm{};
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, used = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &year, &month, &day, &hour, &minute, &second, &used) != 6 ||
      used != static_cast<int>(text.size()) || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 ||
      minute > 59 || second > 60)
    return NAN;
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  return static_cast<double>(timegm(&tm));
}

PrometheusRecords read_prometheus_records(const h5::ResultReader& file) {
  PrometheusRecords records;
  records.values = model::node_metric_values(catalog::all_node_metrics(), read_metric_tables(file));
  records.cohorts = read_node_cohorts(file);
  bool stored = false;
  records.flags = survey_flags(file, boost::program_options::variables_map{}, stored);
  records.survey.job_id = text_attribute(file, "/provenance", "slurm_job_id");
  records.survey.version = text_attribute(file, "/", "tool_version");
  records.survey.commit = text_attribute(file, "/", "git_commit");
  records.survey.start_time_seconds = utc_iso8601_seconds(text_attribute(file, "/", "created_utc"));
  return records;
}

void write_prometheus(std::ostream& out, const PrometheusRecords& records, bool timestamps) {
  const double start = records.survey.start_time_seconds;
  const std::string stamp =
      timestamps && std::isfinite(start) ? " " + std::to_string(static_cast<long long>(std::llround(start * 1000))) : "";
  Families families;

  for (const model::NodeMetricValue& v : records.values) {
    if (!std::isfinite(v.value)) continue;
    const std::string name = prometheus_metric_name(v.name, v.unit);
    Family& family = families.get(
        name, "bwsurvey node metric " + v.name + (v.unit.empty() ? "" : " in " + v.unit) +
                  (v.higher_is_better ? " (higher is better)" : " (lower is better)") + ", one value per node" +
                  (group_of(v).empty() ? "" : " and group"));
    Labels labels = {{"host", v.host}, {"cohort", model::cohort_of(records.cohorts, v)}};
    if (const std::string group = group_of(v); !group.empty()) labels.emplace_back("group", group);
    family.samples.emplace_back(std::move(labels), v.value);
  }

  // Flags: 0 for every node and metric measured, 1 where /flags has a row
  // that stands (a retest that did not confirm it dismisses it).
  std::vector<std::pair<std::string, std::string>> subjects;
  std::map<std::pair<std::string, std::string>, double> flagged;
  auto note = [&](const std::string& host, const std::string& metric, double value) {
    const auto key = std::make_pair(host, metric);
    auto [it, added] = flagged.try_emplace(key, value);
    if (added) subjects.push_back(key);
    else it->second = std::max(it->second, value);
  };
  for (const model::NodeMetricValue& v : records.values)
    if (std::isfinite(v.value)) note(v.host, v.metric, 0);
  const Table& flags = records.flags;
  if (flags.has_column("host") && flags.has_column("metric"))
    for (std::size_t r = 0; r < flags.rows(); ++r) {
      const bool dismissed = flags.has_column("status") && flags.get_string(r, "status") == model::kFlagTransient;
      note(flags.get_string(r, "host"), flags.get_string(r, "metric"), dismissed ? 0 : 1);
    }
  Family& flag_family = families.get(
      "bwsurvey_flagged",
      "1 when the survey flagged the node's metric (and a retest did not dismiss it), 0 when it did not");
  for (const auto& key : subjects) flag_family.samples.push_back({{{"host", key.first}, {"metric", key.second}}, flagged[key]});

  families.get("bwsurvey_survey_info", "the survey this file's metrics come from; always 1")
      .samples.push_back({{{"job_id", records.survey.job_id},
                           {"version", records.survey.version},
                           {"commit", records.survey.commit}},
                          1});
  if (std::isfinite(start))
    families.get("bwsurvey_survey_start_time_seconds", "when the survey started (created_utc), Unix seconds")
        .samples.push_back({{}, start});

  std::ostringstream text;
  for (const std::string& name : families.order) {
    const Family& family = families.by_name.at(name);
    text << "# HELP " << name << ' ' << help_text(family.help) << '\n' << "# TYPE " << name << " gauge\n";
    for (const auto& [labels, value] : family.samples)
      text << name << labels_text(labels) << ' ' << number(value) << stamp << '\n';
  }
  out << text.str();
}

}  // namespace bws::report
