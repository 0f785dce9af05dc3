#include "model/References.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "core/Errors.hpp"
#include "core/OptionText.hpp"

namespace bws::model {
namespace {

// Factor from `unit` to `metric_unit`, or 0 when they do not fit.
double unit_factor(const std::string& unit, const std::string& metric_unit) {
  struct Scale {
    const char* name;
    const char* base;
    double factor;
  };
  static const Scale scales[] = {
      {"B/s", "B/s", 1},     {"kB/s", "B/s", 1e3},          {"MB/s", "B/s", 1e6},
      {"GB/s", "B/s", 1e9},  {"TB/s", "B/s", 1e12},         {"KiB/s", "B/s", 1024.0},
      {"MiB/s", "B/s", 1048576.0}, {"GiB/s", "B/s", 1073741824.0}, {"s", "s", 1},
      {"ms", "s", 1e-3},     {"us", "s", 1e-6},             {"ns", "s", 1e-9},
  };
  for (const Scale& s : scales)
    if (unit == s.name && metric_unit == s.base) return s.factor;
  return unit == metric_unit ? 1 : 0;
}

std::string metric_names(const std::vector<NodeMetric>& metrics) {
  std::string known;
  for (const NodeMetric& m : metrics) known += (known.empty() ? "" : ", ") + m.name;
  return known.empty() ? "(none)" : known;
}

}  // namespace

const NodeMetric* resolve_metric_key(const std::vector<NodeMetric>& metrics, const std::string& key, std::string& why) {
  const std::size_t open = key.find('[');
  const std::string base = trim_text(key.substr(0, open));
  const auto it = std::find_if(metrics.begin(), metrics.end(), [&](const NodeMetric& m) { return m.name == base; });
  if (it == metrics.end()) {
    why = "unknown metric " + quoted_input(key) + "; metrics: " + metric_names(metrics);
    return nullptr;
  }
  if (open == std::string::npos) return &*it;
  if (key.back() != ']') {
    why = "metric " + quoted_input(key) + " is not NAME or NAME[GROUP]";
    return nullptr;
  }
  const std::vector<std::string> values = split_comma_list(key.substr(open + 1, key.size() - open - 2));
  if (it->group_by.empty()) {
    why = "metric " + quoted_input(key) + " has no groups: " + it->name + " has one value per node";
    return nullptr;
  }
  std::string columns;
  for (const std::string& c : it->group_by) columns += (columns.empty() ? "" : ",") + c;
  if (values.size() != it->group_by.size()) {
    why = "metric " + quoted_input(key) + " matches no group: " + it->name + "'s groups are [" + columns + "]";
    return nullptr;
  }
  for (std::size_t g = 0; g < values.size() && g < it->group_values.size(); ++g) {
    const std::vector<std::string>& allowed = it->group_values[g];
    if (allowed.empty() || std::find(allowed.begin(), allowed.end(), values[g]) != allowed.end()) continue;
    std::string list;
    for (const std::string& v : allowed) list += (list.empty() ? "" : ", ") + v;
    why = "metric " + quoted_input(key) + " matches no group: " + it->group_by[g] + " is one of " + list;
    return nullptr;
  }
  return &*it;
}

std::vector<Reference> parse_references(const std::string& text, const std::string& origin,
                                        const std::vector<NodeMetric>& metrics) {
  std::vector<Reference> refs;
  std::istringstream in(text);
  std::string raw, section = "*";
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    const std::string where = origin + " line " + std::to_string(line) + ": ";
    std::string l = raw.substr(0, raw.find_first_of("#;"));
    l = trim_text(l);
    if (l.empty()) continue;
    if (l.front() == '[') {
      if (l.back() != ']' || l.size() < 3) throw UsageError(where + "a section is [host pattern]");
      section = trim_text(l.substr(1, l.size() - 2));
      continue;
    }
    const auto eq = l.find('=');
    if (eq == std::string::npos) throw UsageError(where + "expected 'metric = target, lower, upper, unit'");
    Reference r;
    r.host_pattern = section;
    r.metric = trim_text(l.substr(0, eq));
    r.line = line;
    std::string why;
    const NodeMetric* metric = resolve_metric_key(metrics, r.metric, why);
    if (!metric) throw UsageError(where + why);
    for (const Reference& other : refs)
      if (other.host_pattern == r.host_pattern && other.metric == r.metric)
        throw UsageError(where + quoted_input(r.metric) + " for hosts " + quoted_input(r.host_pattern) + " is given twice (line " +
                         std::to_string(other.line) + " too); give each metric once per section");
    const std::vector<std::string> fields = split_comma_list(l.substr(eq + 1));
    if (fields.size() != 4) throw UsageError(where + "expected 'metric = target, lower, upper, unit' (4 values)");
    const double factor = unit_factor(fields[3], metric->unit);
    if (factor == 0)
      throw UsageError(where + "unit " + quoted_input(fields[3]) + " does not fit " + metric->name + ", measured in " +
                       metric->unit);
    auto number = [&](const std::string& f, const char* what) {
      double v = 0;
      const NumberRead read = read_real_number(f, v);
      if (read == NumberRead::NotANumber) throw UsageError(where + what + " " + quoted_input(f) + " is not a number");
      if (read == NumberRead::OutOfRange) throw UsageError(where + what + " " + quoted_input(f) + " is out of range");
      return v;
    };
    r.target = number(fields[0], "target") * factor;
    if (!(r.target > 0)) throw UsageError(where + "the target must be > 0");
    if (!std::isfinite(r.target)) throw UsageError(where + "target " + quoted_input(fields[0]) + " is out of range");
    r.lower_open = lower_text(fields[1]) == "none";
    r.upper_open = lower_text(fields[2]) == "none";
    if (!r.lower_open) r.lower_fraction = number(fields[1], "lower");
    if (!r.upper_open) r.upper_fraction = number(fields[2], "upper");
    if (!r.lower_open && r.lower_fraction > 0)
      throw UsageError(where + "lower is a fraction of the target <= 0 (e.g. -0.1), or none");
    if (!r.upper_open && r.upper_fraction < 0)
      throw UsageError(where + "upper is a fraction of the target >= 0 (e.g. 0.1), or none");
    refs.push_back(r);
  }
  return refs;
}

std::vector<CheckRow> check_references(const std::vector<Reference>& references,
                                       const std::vector<NodeMetric>& metrics, const std::vector<Table>& tables) {
  std::vector<CheckRow> rows;
  if (references.empty()) return rows;
  constexpr double inf = std::numeric_limits<double>::infinity();
  for (const NodeMetricValue& v : node_metric_values(metrics, tables)) {
    // Sections in file order; within the first matching one that names the
    // metric, its group's line wins over its name's.
    const Reference* chosen = nullptr;
    for (std::size_t i = 0; i < references.size() && !chosen; ++i) {
      const Reference& r = references[i];
      if (fnmatch(r.host_pattern.c_str(), v.host.c_str(), 0) != 0) continue;
      if (r.metric != v.metric && r.metric != v.name) continue;
      chosen = &r;
      for (std::size_t j = i; j < references.size(); ++j)  // the same section's group-specific line
        if (references[j].host_pattern == r.host_pattern && references[j].metric == v.metric) {
          chosen = &references[j];
          break;
        }
    }
    if (!chosen) continue;
    CheckRow row;
    row.check = "reference." + v.name;
    row.subject = v.host + " " + v.metric;
    row.kind = "model";
    row.measured = v.value;
    row.expected = chosen->target;
    row.lower = chosen->lower_open ? -inf : chosen->target * (1 + chosen->lower_fraction);
    row.upper = chosen->upper_open ? inf : chosen->target * (1 + chosen->upper_fraction);
    row.unit = v.unit;
    row.passed = v.value >= row.lower && v.value <= row.upper;
    rows.push_back(row);
  }
  return rows;
}

}  // namespace bws::model
