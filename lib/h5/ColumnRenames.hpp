#pragma once
// Columns renamed since files were first written: a file written before a
// rename is read with the new name, so no reader (bwreport, merge, export,
// the history) knows the old one. Repetitions are `reps` in every table;
// STREAM's were `ntimes` and pmbw's `samples` in files written before that
// one name.
#include <string_view>

#include "core/Table.hpp"

namespace bws::h5 {

struct ColumnRename {
  std::string_view table;     // "stream/results"
  std::string_view old_name;  // "ntimes"
  std::string_view new_name;  // "reps"
};

inline constexpr ColumnRename kColumnRenames[] = {
    {"stream/results", "ntimes", "reps"},
    {"pmbw/results", "samples", "reps"},
};

// The table with its old column names replaced by the current ones (rows,
// samples and source kept); the table as it is when none applies.
Table with_current_column_names(Table table);

}  // namespace bws::h5
