#pragma once
// A Table as flat text: CSV (a header of column names, one line per row;
// text quoted when it holds a comma, quote or line break; reals in the
// shortest form that reads back exactly, non-finite ones as nan/inf) or
// JSON ({"table", "columns": [{"name", "unit"}], "rows": [{name: value}]},
// non-finite reals as null). Samples are not included.
#include <iosfwd>

#include "core/Table.hpp"

namespace bws::report {

void write_csv(std::ostream& out, const Table& table);
void write_json(std::ostream& out, const Table& table);

}  // namespace bws::report
