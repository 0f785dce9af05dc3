#pragma once
// Slow-node flags: every node metric (one value per node) is judged within
// the node's hardware cohort (model/Cohorts.hpp) by the rule of
// model/FlagRule.hpp (--flags.k, --flags.fraction), and against absolute
// floors the user gives (--flags.floor), which apply at any cohort size. A
// cohort of 1 or 2 nodes gets only the absolute rules. For a metric where
// lower is better (a time) every comparison is mirrored. A flag can then be
// retested (apply_retests): it stands only when the retest confirms it.
// Pure functions over Tables: bwsurvey and bwreport share them.
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "core/Table.hpp"
#include "model/Cohorts.hpp"
#include "model/FlagRule.hpp"
#include "model/NodeMetrics.hpp"

namespace bws::model {

inline constexpr const char* kFlagsPath = "flags";
// The smallest cohort the relative rules judge.
inline constexpr int kMinNodesForStatistics = kMinCohortForDeficitRule;

// /flags status values.
inline constexpr const char* kFlagConfirmed = "confirmed";
inline constexpr const char* kFlagTransient = "not confirmed (transient)";
inline constexpr const char* kFlagNotRetested = "not retested";

// The flag rule's settings, a plain typed struct: the options that fill it
// (--flags.*, their ranges and help) are declared once in
// catalog/FlagOptions.hpp.
struct FlagSettings {
  double k = FlagRule{}.k;                // --flags.k
  double fraction = FlagRule{}.fraction;  // --flags.fraction
  // --flags.floor: metric (a name, or a name with its group) -> limit in the metric's unit.
  std::map<std::string, double> floors;
  FlagRule rule() const { return {k, fraction}; }
};

// The floors of --flags.floor's grammar, METRIC=VALUE[,METRIC=VALUE...]
// (commas inside a metric's brackets belong to it): UsageError naming
// --flags.floor for an item that is not METRIC=VALUE, an unknown metric or
// group, a value that is not > 0, or a metric given twice. Empty text: none.
std::map<std::string, double> parse_flag_floors(const std::string& text, const std::vector<NodeMetric>& metrics);
// "stream.triad, bs.wmax": the metrics a floor may name.
std::string known_metrics(const std::vector<NodeMetric>& metrics);

// /flags: host, cohort, cohort_nodes, metric, value (the first
// measurement), median (of the node's cohort peers), mad (of the cohort),
// robust_z, percent_of_median, threshold (the value at which the node is
// flagged), unit, rule ("fraction", "spread", "floor", "memory"), reason,
// retest_values, retest_median, status. One row per flagged node and metric.
Table make_flags_table();

// One node's value of one metric (group) judged against its cohort.
struct JudgedValue {
  NodeMetricValue value;
  std::string cohort;             // cohort_of()
  std::size_t cohort_nodes = 0;   // values > 0 of the metric group in the cohort
  CohortVerdict verdict;          // the relative rule's (hit None below 3 nodes)
  double median = kNoValue;             // of the node's cohort peers; NaN below 3 nodes
  double mad = kNoValue;                // of the cohort; NaN below 3 nodes
  double robust_z = kNoValue;           // NaN below 3 nodes
  double percent_of_median = kNoValue;  // 100 x value / median; NaN below 3 nodes
  double floor = kNoValue;              // the --flags.floor limit that applies; NaN: none
  static constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();
  bool below_floor() const;       // beyond the floor (above it for a time)
};

// Every value > 0 judged by the relative rule in its (metric group,
// cohort), groups in order of first appearance: what /flags keeps of the
// flagged ones, and what `bwreport export --table nodes/verdicts` gives of all.
std::vector<JudgedValue> judge_node_values(const std::vector<NodeMetricValue>& values, const FlagSettings& settings,
                                           const NodeCohorts& cohorts);

// The flags of every node for every metric, from the tables that hold the
// metrics (others are ignored). Hosts missing from `cohorts` form one
// cohort, "unknown hardware".
Table node_flags(const std::vector<NodeMetric>& metrics, const std::vector<Table>& tables,
                 const FlagSettings& settings, const NodeCohorts& cohorts = {});

// The cohort label of a host for a metric value (its class, plus the
// metric's cohort column, e.g. the device).
std::string cohort_of(const NodeCohorts& cohorts, const NodeMetricValue& value);

// Sets retest_values, retest_median and status of every flag row whose
// (host, metric) has values in `retests` (one per retest round): confirmed
// when the retests' median is still beyond the row's threshold, "not
// confirmed (transient)" otherwise. Rows without retests keep their status.
void apply_retests(Table& flags, const std::vector<NodeMetricValue>& retests);

// A /flags host value that names a link, not a node: "a->b" (a pair or
// the path between two leaves), "s1->top" (a switch uplink). '>' is never
// in a Slurm node name.
bool is_link_subject(const std::string& host);
// The nodes a /flags row names: its host (a link map's member label
// "host:rRANK", from a one-host run, names the host); both ends of a
// links.pair "a->b"; none for a switch uplink (links.uplink) or any other
// link subject: the hosts behind an uplink are not in the row.
std::vector<std::string> flag_row_hosts(const std::string& metric, const std::string& host);

// The flagged hosts of a /flags table (link subjects left out: a slow
// link is not its nodes' fault; member labels as their host), in order of first appearance;
// `only_standing`: leave out flags a retest did not confirm.
std::vector<std::string> flagged_hosts(const Table& flags, bool only_standing = false);
// Whether row r still stands (confirmed, or not retested).
bool flag_stands(const Table& flags, std::size_t r);

}  // namespace bws::model
