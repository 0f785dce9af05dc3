#include "model/NodeFlags.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "core/Errors.hpp"
#include "core/OptionText.hpp"
#include "core/Report.hpp"
#include "core/ResultColumns.hpp"
#include "model/LinkVerdicts.hpp"
#include "model/References.hpp"
#include "model/RobustStats.hpp"

namespace bws::model {
namespace {

std::string number(double v) { return significant(v, 4); }

// The floor that applies to a value: the one given for its group wins over
// the one for its name.
const double* floor_for(const FlagSettings& s, const NodeMetricValue& v) {
  if (auto it = s.floors.find(v.metric); it != s.floors.end()) return &it->second;
  if (auto it = s.floors.find(v.name); it != s.floors.end()) return &it->second;
  return nullptr;
}

bool beyond(double value, double threshold, bool higher_is_better) {
  return higher_is_better ? value < threshold : value > threshold;
}

std::string relative_reason(const CohortVerdict& v, double percent, const FlagSettings& s, std::size_t n,
                            bool higher_is_better) {
  if (v.hit == FlagRuleHit::Deficit)
    return number(percent) + " % of the median of its " + std::to_string(n - 1) + " cohort peers (" +
           (higher_is_better ? "< " : "> ") + number(higher_is_better ? 100 * s.fraction : 100 / s.fraction) + " %)";
  return "robust z " + number(v.robust_z) + " < -" + number(v.k_used) + " (k for " + std::to_string(n) +
         " nodes) and " + number(percent) + " % of the median of its " + std::to_string(n - 1) + " cohort peers";
}

}  // namespace

std::string known_metrics(const std::vector<NodeMetric>& metrics) {
  std::string list;
  for (const NodeMetric& m : metrics) list += (list.empty() ? "" : ", ") + m.name;
  return list.empty() ? "(none in this build)" : list;
}

std::map<std::string, double> parse_flag_floors(const std::string& text, const std::vector<NodeMetric>& metrics) {
  std::map<std::string, double> floors;
  const std::string all = trim_text(text);
  if (all.empty()) return floors;
  // Metric names hold commas within their brackets ("bs.wmax[BS6,3]=1e9"):
  // split at commas outside brackets.
  std::vector<std::string> items(1);
  int depth = 0;
  for (char c : all) {
    if (c == '[') ++depth;
    if (c == ']' && depth > 0) --depth;
    if (c == ',' && depth == 0) items.emplace_back();
    else items.back() += c;
  }
  for (const std::string& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos)
      throw UsageError("--flags.floor: " + quoted_input(trim_text(item)) + " is not METRIC=VALUE; metrics: " +
                       known_metrics(metrics));
    const std::string name = trim_text(item.substr(0, eq));
    std::string why;
    if (!resolve_metric_key(metrics, name, why)) throw UsageError("--flags.floor: " + why);
    const double value = parse_real_number(item.substr(eq + 1), "flags.floor", "METRIC=VALUE with a number > 0");
    if (!(value > 0))
      throw UsageError("--flags.floor: " + quoted_input(trim_text(item)) + " is out of range; allowed: METRIC=VALUE with a "
                       "number > 0");
    if (!floors.emplace(name, value).second)
      throw UsageError("--flags.floor: metric " + quoted_input(name) + " is given twice; give each metric once");
  }
  return floors;
}

Table make_flags_table() {
  return Table(kFlagsPath, {text_column("host", kHostWidth), text_column("cohort", 160), int_column("cohort_nodes"),
                            text_column("metric", 64), real_column("value"), real_column("median"),
                            real_column("mad"), real_column("robust_z"), real_column("percent_of_median"),
                            real_column("threshold"), text_column("unit", 16), text_column("rule", 16),
                            text_column("reason", 200), text_column("retest_values", 200),
                            real_column("retest_median"), text_column("status", 32)});
}

std::string cohort_of(const NodeCohorts& cohorts, const NodeMetricValue& value) {
  const auto it = cohorts.find(value.host);
  std::string label = it == cohorts.end() ? std::string("unknown hardware") : it->second;
  if (!value.cohort_detail.empty()) label += " / " + value.cohort_detail;
  return label;
}

std::vector<JudgedValue> judge_node_values(const std::vector<NodeMetricValue>& values, const FlagSettings& settings,
                                           const NodeCohorts& cohorts) {
  // (metric group, cohort) -> the positions of its values, in order of first appearance.
  std::map<std::pair<std::string, std::string>, std::size_t> group_index;
  std::vector<std::vector<std::size_t>> groups;
  std::vector<std::string> value_cohort(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    value_cohort[i] = cohort_of(cohorts, values[i]);
    if (!(values[i].value > 0)) continue;  // the rule judges rates and times > 0 only
    const auto [it, added] = group_index.try_emplace({values[i].metric, value_cohort[i]}, groups.size());
    if (added) groups.emplace_back();
    groups[it->second].push_back(i);
  }
  std::vector<JudgedValue> judged;
  judged.reserve(values.size());
  for (const std::vector<std::size_t>& members : groups) {
    std::vector<double> numbers;
    for (std::size_t i : members) numbers.push_back(values[i].value);
    const bool higher = values[members.front()].higher_is_better;
    const std::vector<CohortVerdict> verdicts = judge_cohort(numbers, higher, settings.rule());
    const double mad = median_absolute_deviation(numbers);
    const bool statistics = members.size() >= static_cast<std::size_t>(kMinNodesForStatistics);
    for (std::size_t j = 0; j < members.size(); ++j) {
      const NodeMetricValue& v = values[members[j]];
      JudgedValue out{.value = v, .cohort = value_cohort[members[j]], .cohort_nodes = members.size(),
                      .verdict = verdicts[j]};
      if (statistics) {
        out.median = verdicts[j].peer_median;
        out.mad = mad;
        out.robust_z = verdicts[j].robust_z;
        out.percent_of_median = out.median != 0 ? 100.0 * v.value / out.median : std::nan("");
      }
      if (const double* floor = floor_for(settings, v)) out.floor = *floor;
      judged.push_back(std::move(out));
    }
  }
  return judged;
}

bool JudgedValue::below_floor() const {
  return !std::isnan(floor) && beyond(value.value, floor, value.higher_is_better);
}

Table node_flags(const std::vector<NodeMetric>& metrics, const std::vector<Table>& tables,
                 const FlagSettings& settings, const NodeCohorts& cohorts) {
  Table flags = make_flags_table();
  for (const JudgedValue& j : judge_node_values(node_metric_values(metrics, tables), settings, cohorts)) {
    const NodeMetricValue& v = j.value;
    const bool floor_flag = j.below_floor();
    if (!j.verdict.flagged() && !floor_flag) continue;
    std::string reason;
    if (j.verdict.flagged())
      reason = relative_reason(j.verdict, j.percent_of_median, settings, j.cohort_nodes, v.higher_is_better);
    if (floor_flag)
      reason += std::string(reason.empty() ? "" : "; ") + (v.higher_is_better ? "below the floor " : "above the limit ") +
                number(j.floor) + " " + v.unit;
    flags.add_row({{"host", v.host},
                   {"cohort", j.cohort},
                   {"cohort_nodes", static_cast<std::int64_t>(j.cohort_nodes)},
                   {"metric", v.metric},
                   {"value", v.value},
                   {"median", j.median},
                   {"mad", j.mad},
                   {"robust_z", j.robust_z},
                   {"percent_of_median", j.percent_of_median},
                   {"threshold", j.verdict.flagged() ? j.verdict.limit : j.floor},
                   {"unit", v.unit},
                   {"rule", j.verdict.flagged() ? std::string(to_string(j.verdict.hit)) : std::string("floor")},
                   {"reason", reason},
                   {"retest_values", std::string()},
                   {"retest_median", std::nan("")},
                   {"status", std::string(kFlagNotRetested)}});
  }
  return flags;
}

void apply_retests(Table& flags, const std::vector<NodeMetricValue>& retests) {
  for (std::size_t r = 0; r < flags.rows(); ++r) {
    const std::string& host = flags.get_string(r, "host");
    const std::string& metric = flags.get_string(r, "metric");
    std::vector<double> found;
    bool higher = true;
    for (const NodeMetricValue& v : retests)
      if (v.host == host && v.metric == metric) {
        found.push_back(v.value);
        higher = v.higher_is_better;
      }
    if (found.empty()) continue;
    std::string list;
    for (double x : found) (list += list.empty() ? "" : ",") += number(x);
    const double median = median_of(found);
    const bool confirmed = beyond(median, flags.get_double(r, "threshold"), higher);
    flags.set(r, "retest_values", list);
    flags.set(r, "retest_median", median);
    flags.set(r, "status", std::string(confirmed ? kFlagConfirmed : kFlagTransient));
  }
}

bool flag_stands(const Table& flags, std::size_t r) {
  return !flags.has_column("status") || flags.get_string(r, "status") != kFlagTransient;
}

bool is_link_subject(const std::string& host) { return host.find("->") != std::string::npos; }

std::vector<std::string> flag_row_hosts(const std::string& metric, const std::string& host) {
  // ':' is never in a Slurm node name: what follows it is a member label's rank.
  const auto node = [](const std::string& label) { return label.substr(0, label.find(':')); };
  if (!is_link_subject(host)) return {node(host)};
  if (metric != kLinksPair) return {};
  const auto arrow = host.find("->");
  return {node(host.substr(0, arrow)), node(host.substr(arrow + 2))};
}

std::vector<std::string> flagged_hosts(const Table& flags, bool only_standing) {
  std::vector<std::string> hosts;
  for (std::size_t r = 0; r < flags.rows(); ++r) {
    if (only_standing && !flag_stands(flags, r)) continue;
    const std::string& label = flags.get_string(r, "host");
    if (is_link_subject(label)) continue;
    const std::string h = flag_row_hosts(flags.get_string(r, "metric"), label).front();
    if (std::find(hosts.begin(), hosts.end(), h) == hosts.end()) hosts.push_back(h);
  }
  return hosts;
}

}  // namespace bws::model
