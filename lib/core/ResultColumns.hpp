#pragma once
// The columns every result table starts with (docs/hdf5-schema.md,
// "Columns every result table has"), and
// the /checks table every benchmark may add rows to.
#include <string>
#include <vector>

#include "core/Table.hpp"

namespace bws {

inline constexpr std::size_t kHostWidth = 128;   // hostnames may hold '-' and '.'
inline constexpr std::size_t kNameWidth = 32;    // kernel, test and routine names

// rank, host, backend, <name_column>, threads; the caller appends its own
// columns and then the closing ones (bytes, t_min, t_avg, t_max, bandwidth, valid).
std::vector<Column> leading_result_columns(const std::string& name_column);
std::vector<Column> closing_result_columns();

// /checks: check, subject, kind (validation|model|warning), measured,
// expected, lower, upper, unit, passed. A failed "validation" check makes the
// run exit 1, a failed "model" check exit 3, a "warning" only is recorded.
Table make_checks_table();
inline constexpr const char* kChecksPath = "checks";

struct CheckRow {
  std::string check, subject, kind;
  double measured = 0, expected = 0, lower = 0, upper = 0;
  std::string unit;
  bool passed = false;
};
void add_check(Table& checks, const CheckRow& row);
// A rate that no run can exceed (a device's or a core's ceiling): one row
// with lower 0 and upper `limit` (the ceiling with any tolerance), passed
// when measured <= limit (+inf and NaN fail); the subject is cut to 160
// characters. Returns whether it passed.
bool add_ceiling_check(Table& checks, const std::string& check, const std::string& subject, const std::string& kind,
                       double measured, double ceiling, double limit, const std::string& unit);

}  // namespace bws
