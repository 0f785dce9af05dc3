#pragma once
// The node-level metrics a benchmark declares in its registry entry (one
// line each), and how one value per node is read out of its tables. The
// node flags and the reference checks both work from these values, in
// bwsurvey (rank 0, on the tables it keeps) and in bwreport (on the file).
#include <string>
#include <utility>
#include <vector>

#include "core/Table.hpp"

namespace bws::model {

// How a node's value is made from several rows of one host and group (a
// per-rank table on a node that ran several ranks).
enum class HostAggregate {
  Sum,   // the ranks ran together: their bandwidths add up (BS Wmax)
  Mean,  // a per-rank figure (b_eff per rank)
};

struct NodeMetric {
  std::string name;    // "stream.triad": what flags, references and --flags.floor call it
  std::string table;   // "stream/nodes": the table path
  std::string column;  // "bandwidth"
  std::string unit;    // the column's unit, "B/s" or "s"
  // Only rows whose cell equals the text (integers compared as decimal text).
  std::vector<std::pair<std::string, std::string>> where = {};
  // Values are compared only among rows that agree on these columns; their
  // values name the group: "stream.triad[double]", "bs.wmax[BS6,3]".
  std::vector<std::string> group_by = {};
  HostAggregate per_host = HostAggregate::Sum;
  bool higher_is_better = true;  // false for times: a slow node has a larger value
  // A column whose text joins the node's hardware class in the cohort
  // ("device" for a device metric: GPUs of two models are two cohorts).
  std::string cohort_column = {};
  // The texts each group_by column can hold (one list per column; an empty
  // list: any), so that a floor or reference naming a group no run can
  // produce ("stream.triad[quad]") is refused when it is given.
  std::vector<std::vector<std::string>> group_values = {};
};

struct NodeMetricValue {
  std::string metric;  // name, with the group's values in brackets when grouped
  std::string name;    // the NodeMetric's name
  std::string host;
  double value = 0;
  std::string unit;
  bool higher_is_better = true;
  std::string cohort_detail;  // the cohort_column's text, "" without one
};

// One value per host and group, from every table in `tables` whose path is
// metric.table (several such tables are read as one). Hosts and groups in
// order of first appearance; rows whose value is not finite are left out.
std::vector<NodeMetricValue> node_metric_values(const NodeMetric& metric, const std::vector<Table>& tables);

// The same over several metrics, in their order.
std::vector<NodeMetricValue> node_metric_values(const std::vector<NodeMetric>& metrics,
                                                const std::vector<Table>& tables);

// The table paths the metrics read.
std::vector<std::string> metric_tables(const std::vector<NodeMetric>& metrics);

}  // namespace bws::model
