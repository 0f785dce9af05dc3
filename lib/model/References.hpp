#pragma once
// Reference values (ReFrame's references): an INI file of
//     [host pattern]                       (a shell glob; [*] or no section: every host)
//     metric = target, lower, upper, unit  (e.g. stream.triad = 30, -0.1, none, GB/s)
// lower and upper are fractions of the target, as in ReFrame: the value
// must lie in [target*(1+lower), target*(1+upper)]; "none" leaves a side
// open. A metric is a node metric's name (any group) or its name with the
// group ("stream.triad[double]"), which wins within a section. For each host
// the first section (in file order) whose pattern matches and that names the
// metric applies. Verdicts are /checks rows of kind "model" (exit 3).
#include <string>
#include <vector>

#include "core/ResultColumns.hpp"
#include "core/Table.hpp"
#include "model/NodeMetrics.hpp"

namespace bws::model {

struct Reference {
  std::string host_pattern;
  std::string metric;  // as written: a name or name[group]
  double target = 0;   // in the metric's unit
  double lower_fraction = 0, upper_fraction = 0;
  bool lower_open = false, upper_open = false;
  int line = 0;
};

// The metric that `key` ("stream.triad", "stream.triad[double]") names, or
// nullptr with `why` saying why no value can ever match it: an unknown name,
// a group on a metric without groups, a group with another number of values
// than the metric's group columns, or a value its column never holds.
const NodeMetric* resolve_metric_key(const std::vector<NodeMetric>& metrics, const std::string& key, std::string& why);

// Parses the file's text; `origin` names the option and file in messages:
// UsageError "--reference 'ref.ini' line 4: ...". Units are converted to the
// metric's (B/s from kB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s; s from ms,
// us, ns); a unit that does not fit the metric, an unknown metric or group
// (resolve_metric_key), a metric given twice in one section, a target that
// is not > 0 or a lower fraction above the upper one is an error. (A metric
// of a test this survey does not run is allowed: one file of references
// serves every survey of a site.)
std::vector<Reference> parse_references(const std::string& text, const std::string& origin,
                                        const std::vector<NodeMetric>& metrics);

// One check row per node value that a reference applies to.
std::vector<CheckRow> check_references(const std::vector<Reference>& references,
                                       const std::vector<NodeMetric>& metrics, const std::vector<Table>& tables);

}  // namespace bws::model
