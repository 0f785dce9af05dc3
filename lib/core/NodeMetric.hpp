#pragma once
// A node-level metric a benchmark declares in its catalog entry (one line
// each): which table, column and rows give one value per node. The node
// flags and the reference checks (lib/model) read values from it.
#include <string>
#include <utility>
#include <vector>

namespace bws {

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
  // The survey's headline metric, by the short name the console summary
  // gives it ("Triad"): its cohort medians in the cohort lines, its line first
  // among the worst nodes, and its values against the DIMMs' theoretical
  // bandwidth. Empty: an ordinary metric. The report asks the catalog for
  // it (catalog::headline_metric) instead of knowing a benchmark by name.
  std::string headline = {};
};

}  // namespace bws
