#pragma once
// Slow-node flags (issue 6): a node is flagged for a metric when its value
// is below median - k * 1.4826 * MAD (a robust z below -k) AND below
// f * median, the median and MAD taken over the nodes of the same metric
// and group; or when it is below an absolute floor the user gives. Both
// conditions of the robust rule must hold: the z alone flags noise when the
// nodes agree to 0.1 %, the fraction alone ignores how noisy the metric is.
// With fewer than kMinNodesForStatistics nodes only floors apply. For a
// metric where lower is better (a time) every comparison is mirrored:
// above median + k*1.4826*MAD and above median / f, or above the "floor"
// (then a ceiling). Pure functions over Tables: bwsurvey and bwreport share them.
#include <map>
#include <string>
#include <vector>

#include <boost/program_options/options_description.hpp>

#include "core/Config.hpp"
#include "core/Table.hpp"
#include "model/NodeMetrics.hpp"

namespace bws::model {

inline constexpr const char* kFlagsPath = "flags";
inline constexpr int kMinNodesForStatistics = 3;

struct FlagSettings {
  double k = 4.0;         // --flags.k
  double fraction = 0.9;  // --flags.fraction
  // --flags.floor: metric (a name, or a name with its group) -> limit in the metric's unit.
  std::map<std::string, double> floors;
};

// --flags.k, --flags.fraction, --flags.floor with their defaults; the
// help names the metrics.
void add_flag_options(boost::program_options::options_description& desc, const std::vector<NodeMetric>& metrics);
// Reads them (absent keys keep the defaults); UsageError naming the option
// and the allowed range, or an unknown metric in --flags.floor.
FlagSettings parse_flag_settings(const Config& config, const std::vector<NodeMetric>& metrics);

// /flags: host, metric, value, median, mad, robust_z, percent_of_median,
// threshold, unit, reason. One row per flagged node and metric.
Table make_flags_table();

// The flags of every node for every metric, from the tables that hold the
// metrics (others are ignored).
Table node_flags(const std::vector<NodeMetric>& metrics, const std::vector<Table>& tables,
                 const FlagSettings& settings);

// The flagged hosts of a /flags table, in order of first appearance.
std::vector<std::string> flagged_hosts(const Table& flags);

}  // namespace bws::model
