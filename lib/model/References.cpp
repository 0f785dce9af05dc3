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

const NodeMetric* find_metric(const std::vector<NodeMetric>& metrics, const std::string& key) {
  const std::string base = key.substr(0, key.find('['));
  for (const NodeMetric& m : metrics)
    if (m.name == base) return &m;
  return nullptr;
}

}  // namespace

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
    const NodeMetric* metric = find_metric(metrics, r.metric);
    if (!metric) {
      std::string known;
      for (const NodeMetric& m : metrics) known += (known.empty() ? "" : ", ") + m.name;
      throw UsageError(where + "unknown metric '" + r.metric + "'; metrics: " + known);
    }
    const std::vector<std::string> fields = split_comma_list(l.substr(eq + 1));
    if (fields.size() != 4) throw UsageError(where + "expected 'metric = target, lower, upper, unit' (4 values)");
    const double factor = unit_factor(fields[3], metric->unit);
    if (factor == 0)
      throw UsageError(where + "unit '" + fields[3] + "' does not fit " + metric->name + ", measured in " + metric->unit);
    auto number = [&](const std::string& f, const char* what) {
      char* end = nullptr;
      const double v = std::strtod(f.c_str(), &end);
      if (f.empty() || end != f.c_str() + f.size() || !std::isfinite(v))
        throw UsageError(where + what + " '" + f + "' is not a number");
      return v;
    };
    r.target = number(fields[0], "target") * factor;
    if (!(r.target > 0)) throw UsageError(where + "the target must be > 0");
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
