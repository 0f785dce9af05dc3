#pragma once
// A Table as flat text: CSV (a header of column names, one line per row;
// text quoted when it holds a comma, quote or line break; reals in the
// shortest form that reads back exactly, non-finite ones as nan/inf) or
// JSON (an array of records, one object per row, {"name": value}, non-finite
// reals as null: what pandas.read_json(path, orient="records") reads).
// Samples are not included. Text is always valid UTF-8: a byte of a cell or
// name that is not part of a valid UTF-8 sequence is written as the four
// characters \xNN (with_utf8_escapes, core/PrintableText.hpp), so json.load and csv readers take
// any file.
//
// Header names carry the column's unit (header_name): a column "bandwidth"
// in B/s is "bandwidth_Bps", "t_min" in s is "t_min_s"; a name that already
// holds its unit ("latency_s", "area_bytes", "slope_Bps_per_rank") is kept.
// A view that copies another tool's header (BabelStream's) asks for its
// names as declared (HeaderNames::AsDeclared).
#include <iosfwd>
#include <string>

#include "core/Table.hpp"

namespace bws::report {

enum class HeaderNames { WithUnits, AsDeclared };

// The suffix of a unit: B/s -> "Bps", s -> "s", B -> "bytes", MB/s -> "MBps",
// FLOP -> "flop", FLOP/s -> "flop_per_s", FLOP/B -> "flop_per_byte"; any other
// unit: '/' as "_per_", other characters outside [A-Za-z0-9] as '_'; "" for
// a dimensionless column.
std::string unit_suffix(const std::string& unit);
// The column's name with "_<suffix>" appended unless the name's
// '_'-separated words already hold the unit (its suffix or another
// spelling of it: "seconds", "sec" for s; "B" for B; "per_sec" forms).
std::string header_name(const Column& column);

void write_csv(std::ostream& out, const Table& table, HeaderNames names = HeaderNames::WithUnits);
void write_json(std::ostream& out, const Table& table, HeaderNames names = HeaderNames::WithUnits);

}  // namespace bws::report
