#pragma once
// The raw samples of a table: a 2-D float64 dataset [table rows x samples],
// chunked and unlimited in both directions. Row i holds the samples of table
// row i; shorter rows are padded with NaN (the dataset's fill value, so
// cells added by widening are NaN too).
#include <hdf5.h>

#include <string>
#include <vector>

#include "core/Table.hpp"
#include "h5/ReadChecks.hpp"

namespace bws::h5 {

// Writes the samples of all rows of `table` to rows [first_row, first_row +
// table.rows()) of the dataset at absolute `path`, creating it on first use
// and growing it (rows, and columns when a row has more samples than the
// dataset is wide).
void append_samples(hid_t file, const std::string& path, const Table& table, hsize_t first_row);

// The samples of rows [first_row, first_row + count), each without its
// trailing NaN padding; rows the dataset does not have come back empty.
// Read a piece of rows at a time; with a `meter`, each piece is counted
// against it as it lands.
std::vector<std::vector<double>> read_samples(hid_t file, const std::string& path, hsize_t first_row, hsize_t count,
                                              ReadMeter* meter = nullptr);

}  // namespace bws::h5
