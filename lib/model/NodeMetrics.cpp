#include "model/NodeMetrics.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace bws::model {
namespace {

std::string cell_text(const Table& t, std::size_t r, const std::string& column) {
  const Value& v = t.at(r, column);
  switch (v.type()) {
    case ColumnType::String: return v.as_string();
    case ColumnType::Int64: return std::to_string(v.as_int());
    case ColumnType::Float64: return std::to_string(v.as_double());
  }
  return {};
}

struct Accumulated {
  std::string metric, host, cohort_detail;
  double sum = 0;
  int rows = 0;
};

}  // namespace

std::vector<NodeMetricValue> node_metric_values(const NodeMetric& metric, const std::vector<Table>& tables) {
  std::vector<Accumulated> order;
  std::map<std::pair<std::string, std::string>, std::size_t> index;  // (metric label, host) -> order
  for (const Table& t : tables) {
    if (t.path() != metric.table || !t.has_column(metric.column) || !t.has_column("host")) continue;
    for (std::size_t r = 0; r < t.rows(); ++r) {
      const bool selected = std::all_of(metric.where.begin(), metric.where.end(), [&](const auto& w) {
        return t.has_column(w.first) && cell_text(t, r, w.first) == w.second;
      });
      if (!selected) continue;
      const double value = t.get_double(r, metric.column);
      if (!std::isfinite(value)) continue;
      std::string label = metric.name;
      if (!metric.group_by.empty()) {
        label += "[";
        for (std::size_t g = 0; g < metric.group_by.size(); ++g)
          (label += g ? "," : "") += t.has_column(metric.group_by[g]) ? cell_text(t, r, metric.group_by[g]) : "";
        label += "]";
      }
      const std::string& host = t.get_string(r, "host");
      auto [it, fresh] = index.try_emplace({label, host}, order.size());
      if (fresh)
        order.push_back({label, host,
                         metric.cohort_column.empty() || !t.has_column(metric.cohort_column)
                             ? std::string()
                             : cell_text(t, r, metric.cohort_column)});
      Accumulated& a = order[it->second];
      a.sum += value;
      a.rows += 1;
    }
  }
  std::vector<NodeMetricValue> values;
  values.reserve(order.size());
  for (const Accumulated& a : order) {
    const double value = metric.per_host == HostAggregate::Mean ? a.sum / a.rows : a.sum;
    values.push_back({a.metric, metric.name, a.host, value, metric.unit, metric.higher_is_better, a.cohort_detail});
  }
  return values;
}

std::vector<NodeMetricValue> node_metric_values(const std::vector<NodeMetric>& metrics,
                                                const std::vector<Table>& tables) {
  std::vector<NodeMetricValue> all;
  for (const NodeMetric& m : metrics) {
    auto values = node_metric_values(m, tables);
    all.insert(all.end(), std::make_move_iterator(values.begin()), std::make_move_iterator(values.end()));
  }
  return all;
}

std::vector<std::string> metric_tables(const std::vector<NodeMetric>& metrics) {
  std::vector<std::string> paths;
  for (const NodeMetric& m : metrics)
    if (std::find(paths.begin(), paths.end(), m.table) == paths.end()) paths.push_back(m.table);
  return paths;
}

}  // namespace bws::model
