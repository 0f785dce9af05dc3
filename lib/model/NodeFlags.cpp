#include "model/NodeFlags.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/Errors.hpp"
#include "core/OptionText.hpp"
#include "core/ResultColumns.hpp"
#include "model/RobustStats.hpp"

namespace bws::model {
namespace {

std::string number(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string known_metrics(const std::vector<NodeMetric>& metrics) {
  std::string list;
  for (const NodeMetric& m : metrics) list += (list.empty() ? "" : ", ") + m.name;
  return list.empty() ? "(none in this build)" : list;
}

// The floor that applies to a value: the one given for its group wins over
// the one for its name.
const double* floor_for(const FlagSettings& s, const NodeMetricValue& v) {
  if (auto it = s.floors.find(v.metric); it != s.floors.end()) return &it->second;
  if (auto it = s.floors.find(v.name); it != s.floors.end()) return &it->second;
  return nullptr;
}

}  // namespace

void add_flag_options(boost::program_options::options_description& desc, const std::vector<NodeMetric>& metrics) {
  add_text_option(desc, "flags.k", "4",
                  "flag a node whose metric is more than k robust standard deviations (1.4826 x MAD) below the "
                  "median of the nodes (and below --flags.fraction of it): a number > 0");
  add_text_option(desc, "flags.fraction", "0.9",
                  "... and below this fraction of the median: a number in (0, 1]");
  const std::string floor_help =
      "absolute limits, METRIC=VALUE[,METRIC=VALUE...] in the metric's unit (B/s; s for times, then a ceiling): a "
      "node below it is flagged whatever the others measured; default: none; metrics: " +
      known_metrics(metrics);
  add_text_option(desc, "flags.floor", "", floor_help.c_str());
}

FlagSettings parse_flag_settings(const Config& config, const std::vector<NodeMetric>& metrics) {
  FlagSettings s;
  s.k = parse_real_number(option_text(config, "flags.k", "4"), "flags.k", "a number > 0");
  if (!(s.k > 0)) throw UsageError("--flags.k: " + config.get("flags.k") + " is out of range; allowed: a number > 0");
  s.fraction = parse_real_number(option_text(config, "flags.fraction", "0.9"), "flags.fraction", "a number in (0, 1]");
  if (!(s.fraction > 0 && s.fraction <= 1))
    throw UsageError("--flags.fraction: " + config.get("flags.fraction") + " is out of range; allowed: (0, 1]");
  const std::string floors = trim_text(option_text(config, "flags.floor", ""));
  if (floors.empty()) return s;
  for (const std::string& item : split_comma_list(floors)) {
    const auto eq = item.find('=');
    if (eq == std::string::npos)
      throw UsageError("--flags.floor: '" + item + "' is not METRIC=VALUE; metrics: " + known_metrics(metrics));
    const std::string name = trim_text(item.substr(0, eq));
    const std::string base = name.substr(0, name.find('['));
    if (std::none_of(metrics.begin(), metrics.end(), [&](const NodeMetric& m) { return m.name == base; }))
      throw UsageError("--flags.floor: unknown metric '" + name + "'; metrics: " + known_metrics(metrics));
    const double value = parse_real_number(item.substr(eq + 1), "flags.floor", "METRIC=VALUE with a number");
    s.floors[name] = value;
  }
  return s;
}

Table make_flags_table() {
  return Table(kFlagsPath, {text_column("host", kHostWidth), text_column("metric", 64), real_column("value"),
                            real_column("median"), real_column("mad"), real_column("robust_z"),
                            real_column("percent_of_median"), real_column("threshold"), text_column("unit", 16),
                            text_column("reason", 200)});
}

Table node_flags(const std::vector<NodeMetric>& metrics, const std::vector<Table>& tables,
                 const FlagSettings& settings) {
  Table flags = make_flags_table();
  const std::vector<NodeMetricValue> values = node_metric_values(metrics, tables);
  // Groups in order of first appearance.
  std::vector<std::string> groups;
  for (const NodeMetricValue& v : values)
    if (std::find(groups.begin(), groups.end(), v.metric) == groups.end()) groups.push_back(v.metric);

  for (const std::string& group : groups) {
    std::vector<const NodeMetricValue*> members;
    std::vector<double> numbers;
    for (const NodeMetricValue& v : values)
      if (v.metric == group) {
        members.push_back(&v);
        numbers.push_back(v.value);
      }
    const bool statistics = static_cast<int>(members.size()) >= kMinNodesForStatistics;
    const double median = median_of(numbers);
    const double mad = median_absolute_deviation(numbers);
    for (const NodeMetricValue* v : members) {
      const double sign = v->higher_is_better ? 1.0 : -1.0;  // mirror times
      const double z = robust_z(v->value, median, mad);
      // The robust rule's limit: below both median - k*s and f*median
      // (mirrored: above both median + k*s and median/f).
      const double spread_limit = median - sign * settings.k * kMadToSigma * mad;
      const double fraction_limit = v->higher_is_better ? settings.fraction * median : median / settings.fraction;
      const double robust_limit = v->higher_is_better ? std::min(spread_limit, fraction_limit)
                                                      : std::max(spread_limit, fraction_limit);
      const bool robust_flag = statistics && sign * z < -settings.k &&
                               (v->higher_is_better ? v->value < fraction_limit : v->value > fraction_limit);
      const double* floor = floor_for(settings, *v);
      const bool floor_flag = floor && (v->higher_is_better ? v->value < *floor : v->value > *floor);
      if (!robust_flag && !floor_flag) continue;

      const double percent = median != 0 ? 100.0 * v->value / median : std::nan("");
      std::string reason;
      if (robust_flag)
        reason = "robust z " + number(z) + (v->higher_is_better ? " < -" : " > ") + number(settings.k) + " and " +
                 number(percent) + " % of the median (" + (v->higher_is_better ? "< " : "> ") +
                 number(v->higher_is_better ? 100 * settings.fraction : 100 / settings.fraction) + " %) of " +
                 std::to_string(members.size()) + " nodes";
      if (floor_flag)
        reason += std::string(reason.empty() ? "" : "; ") + (v->higher_is_better ? "below the floor " : "above the limit ") +
                  number(*floor) + " " + v->unit;
      flags.add_row({{"host", v->host},
                     {"metric", v->metric},
                     {"value", v->value},
                     {"median", median},
                     {"mad", mad},
                     {"robust_z", z},
                     {"percent_of_median", percent},
                     {"threshold", robust_flag ? robust_limit : *floor},
                     {"unit", v->unit},
                     {"reason", reason}});
    }
  }
  return flags;
}

std::vector<std::string> flagged_hosts(const Table& flags) {
  std::vector<std::string> hosts;
  for (std::size_t r = 0; r < flags.rows(); ++r) {
    const std::string& h = flags.get_string(r, "host");
    if (std::find(hosts.begin(), hosts.end(), h) == hosts.end()) hosts.push_back(h);
  }
  return hosts;
}

}  // namespace bws::model
