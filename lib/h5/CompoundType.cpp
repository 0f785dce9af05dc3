#include "h5/CompoundType.hpp"

#include <cstring>
#include <string>

#include "core/Errors.hpp"
#include "h5/Failure.hpp"
#include "h5/Strings.hpp"

namespace bws::h5 {

namespace {

std::size_t stored_size(const Column& column) {
  return column.type == ColumnType::String ? column.width : sizeof(std::int64_t);
}

// One member per column; `integer_type` and `real_type` differ between the
// stored (little-endian) and the memory (native) row type.
Handle row_type(const Table& table, const RowLayout& layout, hid_t integer_type, hid_t real_type) {
  const std::string& object = table.path();
  Handle type = checked_handle(H5Tcreate(H5T_COMPOUND, layout.row_bytes), H5Tclose, H5I_INVALID_HID,
                               "make the row type of", object);
  const auto& columns = table.columns();
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const Column& column = columns[i];
    Handle string_type;
    hid_t member = integer_type;
    if (column.type == ColumnType::Float64) member = real_type;
    if (column.type == ColumnType::String) {
      string_type = fixed_utf8_type(column.width);
      member = string_type.id();
    }
    checked(H5Tinsert(type.id(), column.name.c_str(), layout.offsets[i], member), H5I_INVALID_HID,
            "add column '" + column.name + "' to the row type of", object);
  }
  return type;
}

}  // namespace

RowLayout row_layout(const Table& table) {
  if (table.columns().empty()) throw RuntimeFailure("HDF5: table '" + table.path() + "' has no columns to store");
  RowLayout layout;
  for (const Column& column : table.columns()) {
    if (column.type == ColumnType::String && column.width == 0)
      throw RuntimeFailure("HDF5: table '" + table.path() + "': string column '" + column.name + "' has width 0");
    layout.offsets.push_back(layout.row_bytes);
    layout.row_bytes += stored_size(column);
  }
  return layout;
}

Handle stored_row_type(const Table& table, const RowLayout& layout) {
  return row_type(table, layout, H5T_STD_I64LE, H5T_IEEE_F64LE);
}

Handle memory_row_type(const Table& table, const RowLayout& layout) {
  return row_type(table, layout, H5T_NATIVE_INT64, H5T_NATIVE_DOUBLE);
}

void pack_rows(const Table& table, std::size_t first, std::size_t count, const RowLayout& layout, std::byte* out) {
  const auto& columns = table.columns();
  std::memset(out, 0, count * layout.row_bytes);  // the terminator and padding of every string
  for (std::size_t r = 0; r < count; ++r) {
    std::byte* row = out + r * layout.row_bytes;
    const std::vector<Value>& cells = table.row(first + r);
    for (std::size_t c = 0; c < columns.size(); ++c) {
      std::byte* cell = row + layout.offsets[c];
      switch (columns[c].type) {
        case ColumnType::Int64: {
          const std::int64_t value = cells[c].as_int();
          std::memcpy(cell, &value, sizeof value);
          break;
        }
        case ColumnType::Float64: {
          const double value = cells[c].as_number();
          std::memcpy(cell, &value, sizeof value);
          break;
        }
        case ColumnType::String: {
          // width - 1: the last byte stays the terminator.
          const std::string_view text = truncate_utf8(cells[c].as_string(), columns[c].width - 1);
          std::memcpy(cell, text.data(), text.size());
          break;
        }
      }
    }
  }
}

std::optional<ColumnType> column_type_of(H5T_class_t member_class) {
  switch (member_class) {
    case H5T_INTEGER: return ColumnType::Int64;
    case H5T_FLOAT: return ColumnType::Float64;
    case H5T_STRING: return ColumnType::String;
    default: return std::nullopt;
  }
}

}  // namespace bws::h5
