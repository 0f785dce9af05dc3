#pragma once
// A Table as a 1-D chunked compound dataset with unlimited length. Its
// attributes: "column_units" (one string per column, "" when dimensionless)
// and, when the table has samples, "samples" (the absolute path of the
// companion 2-D dataset, see SamplesDataset.hpp).
#include <hdf5.h>

#include <string>

#include "core/Table.hpp"
#include "h5/ReadChecks.hpp"

namespace bws::h5 {

inline constexpr const char* kUnitsAttribute = "column_units";
inline constexpr const char* kSamplesAttribute = "samples";

// Appends the rows (and samples) of `table` at "/" + table.path(); the
// dataset is created on first use, even for a table without rows, so readers
// see its columns. Throws RuntimeFailure when an existing dataset has other
// columns (names and kinds, in order) or another samples dataset.
void append_table(hid_t file, const Table& table);

// Reads the compound dataset at `path` whatever wrote it: integer members
// become Int64 columns, float members Float64, strings String (width = the
// stored size, or the longest value of a variable-length member). The rows
// (and samples) are read a piece at a time and counted against `budget`
// (a budget of its own when none is given): a table that declares or
// holds more than a read may bring into memory is a bad input file.
Table read_table(hid_t file, const std::string& path, ReadBudget* budget = nullptr);

}  // namespace bws::h5
