#pragma once
// A Table row as an HDF5 compound record: one member per column, in column
// order, packed without gaps. Int64 is stored as STD_I64LE, Float64 as
// IEEE_F64LE, String as a NUL-terminated UTF-8 string of the column's width
// (up to width - 1 bytes of text), so h5py maps a row onto a numpy
// structured dtype (<i8, <f8, S<width>).
#include <hdf5.h>

#include <cstddef>
#include <optional>
#include <vector>

#include "core/Table.hpp"
#include "h5/Handles.hpp"

namespace bws::h5 {

struct RowLayout {
  std::vector<std::size_t> offsets;  // byte offset of each column in a row
  std::size_t row_bytes = 0;
};

// Throws RuntimeFailure for a table HDF5 cannot store (no columns, a string
// column of width 0).
RowLayout row_layout(const Table& table);

// The type written to the file.
Handle stored_row_type(const Table& table, const RowLayout& layout);
// The same members with native numbers: the buffer type for H5Dwrite.
Handle memory_row_type(const Table& table, const RowLayout& layout);

// Copies rows [first, first + count) into `out` (count * row_bytes bytes).
// Strings longer than width - 1 bytes are cut (at a UTF-8 character boundary).
void pack_rows(const Table& table, std::size_t first, std::size_t count, const RowLayout& layout, std::byte* out);

// The column type a stored member class reads as: integers (any size or
// sign) as Int64, floats as Float64, strings as String; other classes none.
std::optional<ColumnType> column_type_of(H5T_class_t member_class);

}  // namespace bws::h5
