#include "core/ResultColumns.hpp"

namespace bws {

std::vector<Column> leading_result_columns(const std::string& name_column) {
  return {int_column("rank"), text_column("host", kHostWidth), text_column("backend", 16),
          text_column(name_column, kNameWidth), int_column("threads")};
}

std::vector<Column> closing_result_columns() {
  return {int_column("bytes", "B"),        real_column("t_min", "s"), real_column("t_avg", "s"),
          real_column("t_max", "s"),       real_column("bandwidth", "B/s"), int_column("valid")};
}

Table make_checks_table() {
  return Table(kChecksPath, {text_column("check", 48), text_column("subject", 160), text_column("kind", 16),
                             real_column("measured"), real_column("expected"), real_column("lower"),
                             real_column("upper"), text_column("unit", 16), int_column("passed")});
}

void add_check(Table& checks, const CheckRow& c) {
  checks.add_row({{"check", c.check},
                  {"subject", c.subject},
                  {"kind", c.kind},
                  {"measured", c.measured},
                  {"expected", c.expected},
                  {"lower", c.lower},
                  {"upper", c.upper},
                  {"unit", c.unit},
                  {"passed", c.passed}});
}

bool add_ceiling_check(Table& checks, const std::string& check, const std::string& subject, const std::string& kind,
                       double measured, double ceiling, double limit, const std::string& unit) {
  const bool passed = measured <= limit;
  add_check(checks, {check, subject.substr(0, 160), kind, measured, ceiling, 0, limit, unit, passed});
  return passed;
}

}  // namespace bws
