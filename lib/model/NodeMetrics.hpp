#pragma once
// How one value per node is read out of the tables for the node-level
// metrics the benchmarks declare (core/NodeMetric.hpp). The node flags and
// the reference checks both work from these values, in bwsurvey (rank 0,
// on the tables it keeps) and in bwreport (on the file).
#include <string>
#include <utility>
#include <vector>

#include "core/NodeMetric.hpp"
#include "core/Table.hpp"

namespace bws::model {

// The metric's declaration lives in core/ (the benchmark folders declare
// theirs in their catalog entries); model/ reads values from it.
using bws::HostAggregate;
using bws::NodeMetric;

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
