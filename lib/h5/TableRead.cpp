#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/Errors.hpp"
#include "h5/Attributes.hpp"
#include "h5/CompoundType.hpp"
#include "h5/Failure.hpp"
#include "h5/Objects.hpp"
#include "h5/Paths.hpp"
#include "h5/ReadChecks.hpp"
#include "h5/ReadPieces.hpp"
#include "h5/SamplesDataset.hpp"
#include "h5/Strings.hpp"
#include "h5/TableDataset.hpp"

namespace bws::h5 {

namespace {

// Far beyond any table bwsurvey writes; a file declaring more is not one of ours.
constexpr int kMaxColumns = 4096;
constexpr std::size_t kMaxTextCellBytes = 65536;
constexpr std::uint64_t kVariableCellBytes = 256;

std::string table_label(const std::string& path) { return "table '" + path + "'"; }

// How one stored member is read: its column, and where and as what it lands
// in the read buffer.
struct MemberReader {
  Column column;
  std::size_t offset = 0;
  Handle memory_type;          // native number, or a string type
  bool variable_length = false;
  H5T_str_t padding = H5T_STR_NULLPAD;
};

struct ReadPlan {
  std::vector<MemberReader> members;
  Handle memory_type;  // the compound of all members, packed
  std::size_t row_bytes = 0;
  std::size_t stored_row_bytes = 0;  // a row's size in the file
};

std::string member_name(hid_t type, unsigned index) {
  char* raw = H5Tget_member_name(type, index);
  std::string name = raw != nullptr ? raw : "";
  H5free_memory(raw);
  return name;
}

MemberReader plan_member(hid_t file, const std::string& path, hid_t stored_type, unsigned index) {
  MemberReader member;
  member.column.name = member_name(stored_type, index);
  Handle stored = checked_handle(H5Tget_member_type(stored_type, index), H5Tclose, file,
                                 "get the type of column '" + member.column.name + "' of", path);
  const auto type = column_type_of(H5Tget_class(stored.id()));
  if (!type)
    bad_input(file, table_label(path),
              "column '" + member.column.name + "' is " + type_class_noun(stored.id()) +
                  "; allowed: an integer, a float or a string (docs/hdf5-schema.md)");
  member.column.type = *type;
  switch (*type) {
    case ColumnType::Int64:
      member.memory_type = checked_handle(H5Tcopy(H5T_NATIVE_INT64), H5Tclose, file, "copy a type for", path);
      break;
    case ColumnType::Float64:
      member.memory_type = checked_handle(H5Tcopy(H5T_NATIVE_DOUBLE), H5Tclose, file, "copy a type for", path);
      break;
    case ColumnType::String:
      member.variable_length = H5Tis_variable_str(stored.id()) > 0;
      member.padding = H5Tget_strpad(stored.id());
      if (member.variable_length) {
        member.memory_type = variable_utf8_type();  // a char* per cell
        checked(H5Tset_cset(member.memory_type.id(), H5Tget_cset(stored.id())), file, "set encoding for", path);
      } else {
        // The stored type itself: the buffer holds the cells as stored.
        member.column.width = H5Tget_size(stored.id());
        if (member.column.width == 0 || member.column.width > kMaxTextCellBytes)
          bad_input(file, table_label(path),
                    "text column '" + member.column.name + "' is " + std::to_string(member.column.width) +
                        " bytes wide; allowed: 1 to " + std::to_string(kMaxTextCellBytes));
        member.memory_type = checked_handle(H5Tcopy(stored.id()), H5Tclose, file, "copy a type for", path);
      }
      break;
  }
  return member;
}

ReadPlan plan_read(hid_t file, const std::string& path, hid_t dataset) {
  Handle stored_type = checked_handle(H5Dget_type(dataset), H5Tclose, file, "get the row type of", path);
  if (H5Tget_class(stored_type.id()) != H5T_COMPOUND)
    bad_input(file, "dataset '" + path + "'",
              "is " + type_class_noun(stored_type.id()) + ", not a table (a compound dataset, docs/hdf5-schema.md)");
  ReadPlan plan;
  const int members = H5Tget_nmembers(stored_type.id());
  if (members <= 0 || members > kMaxColumns)
    bad_input(file, table_label(path),
              "has " + std::to_string(members) + " columns; allowed: 1 to " + std::to_string(kMaxColumns));
  plan.stored_row_bytes = H5Tget_size(stored_type.id());
  for (int i = 0; i < members; ++i) {
    MemberReader member = plan_member(file, path, stored_type.id(), static_cast<unsigned>(i));
    member.offset = plan.row_bytes;
    plan.row_bytes += H5Tget_size(member.memory_type.id());
    plan.members.push_back(std::move(member));
  }
  plan.memory_type = checked_handle(H5Tcreate(H5T_COMPOUND, std::max<std::size_t>(plan.row_bytes, 1)), H5Tclose,
                                    file, "make the read type of", path);
  for (const MemberReader& member : plan.members)
    checked(H5Tinsert(plan.memory_type.id(), member.column.name.c_str(), member.offset, member.memory_type.id()),
            file, "make the read type of", path);
  return plan;
}

Value cell_value(const MemberReader& member, const std::byte* row) {
  const std::byte* cell = row + member.offset;
  switch (member.column.type) {
    case ColumnType::Int64: {
      std::int64_t value = 0;
      std::memcpy(&value, cell, sizeof value);
      return Value(value);
    }
    case ColumnType::Float64: {
      double value = 0;
      std::memcpy(&value, cell, sizeof value);
      return Value(value);
    }
    case ColumnType::String:
      break;
  }
  if (member.variable_length) {
    const char* text = nullptr;
    std::memcpy(&text, cell, sizeof text);
    return Value(std::string(text != nullptr ? text : ""));
  }
  return Value(fixed_cell_text(reinterpret_cast<const char*>(cell), member.column.width, member.padding));
}

hsize_t length_of(hid_t file, hid_t dataset, const std::string& path) {
  Handle space = checked_handle(H5Dget_space(dataset), H5Sclose, file, "get the shape of", path);
  const int rank = H5Sget_simple_extent_ndims(space.id());
  if (rank != 1)
    bad_input(file, table_label(path), "has " + std::to_string(rank) + " dimensions; a table has 1 (docs/hdf5-schema.md)");
  hsize_t length = 0;
  checked(H5Sget_simple_extent_dims(space.id(), &length, nullptr), file, "get the shape of", path);
  return length;
}

// What a row costs in memory once read, besides text longer than a
// std::string holds inline.
std::uint64_t row_memory_bytes(const ReadPlan& plan) {
  return sizeof(std::vector<Value>) + plan.members.size() * sizeof(Value);
}

std::uint64_t text_heap_bytes(const Value& cell) {
  static const std::size_t inline_capacity = std::string().capacity();
  if (cell.type() != ColumnType::String) return 0;
  const std::size_t capacity = cell.as_string().capacity();
  return capacity > inline_capacity ? capacity + 1 : 0;
}

// Rows [first, first + count) into `cells`; returns the memory they take.
std::uint64_t read_rows(hid_t file, hid_t dataset, const std::string& path, const ReadPlan& plan, hsize_t first,
                        hsize_t count, std::vector<std::vector<Value>>& cells) {
  Handle file_space = checked_handle(H5Dget_space(dataset), H5Sclose, file, "get the shape of", path);
  checked(H5Sselect_hyperslab(file_space.id(), H5S_SELECT_SET, &first, nullptr, &count, nullptr), file,
          "select rows of", path);
  Handle memory_space =
      checked_handle(H5Screate_simple(1, &count, nullptr), H5Sclose, file, "make a buffer dataspace for", path);
  std::vector<std::byte> buffer(count * plan.row_bytes);
  checked(H5Dread(dataset, plan.memory_type.id(), memory_space.id(), file_space.id(), H5P_DEFAULT, buffer.data()),
          file, "read rows of", path);
  std::uint64_t bytes = count * row_memory_bytes(plan);
  for (hsize_t r = 0; r < count; ++r) {
    std::vector<Value> row;
    row.reserve(plan.members.size());
    for (const MemberReader& member : plan.members) {
      row.push_back(cell_value(member, buffer.data() + r * plan.row_bytes));
      bytes += text_heap_bytes(row.back());
    }
    cells.push_back(std::move(row));
  }
  // Frees the strings HDF5 allocated for variable-length members (no-op otherwise).
  H5Dvlen_reclaim(plan.memory_type.id(), memory_space.id(), H5P_DEFAULT, buffer.data());
  return bytes;
}

// All rows, a piece at a time, each piece counted by `meter` as it lands.
std::vector<std::vector<Value>> read_all_rows(hid_t file, hid_t dataset, const std::string& path, const ReadPlan& plan,
                                              hsize_t rows, ReadMeter& meter) {
  std::vector<std::vector<Value>> cells;
  // A variable-length cell holds a pointer in the buffer; its text, known
  // only once read, is sized as kVariableCellBytes for the piece.
  std::uint64_t piece_row_bytes = plan.row_bytes;
  for (const MemberReader& member : plan.members)
    if (member.variable_length) piece_row_bytes += kVariableCellBytes;
  const hsize_t piece = rows_per_piece(dataset, piece_row_bytes, rows);
  for (hsize_t first = 0; first < rows; first += piece)
    meter.add(read_rows(file, dataset, path, plan, first, std::min(piece, rows - first), cells));
  return cells;
}

std::string file_name(hid_t file) {
  const ssize_t length = H5Fget_name(file, nullptr, 0);
  if (length <= 0) {
    clear_hdf5_errors();
    return "?";
  }
  std::string name(static_cast<std::size_t>(length) + 1, '\0');
  H5Fget_name(file, name.data(), name.size());
  name.resize(static_cast<std::size_t>(length));
  return name;
}

// column_units: when present, one text per column (docs/hdf5-schema.md).
void apply_units(hid_t file, hid_t dataset, const std::string& path, std::vector<Column>& columns) {
  if (!has_attribute(dataset, kUnitsAttribute)) return;
  const std::string label = "attribute '" + path + "@" + kUnitsAttribute + "'";
  const std::vector<std::string> units = read_text_array_attribute(dataset, kUnitsAttribute);
  if (units.size() != columns.size())
    bad_input(file, label,
              "has " + std::to_string(units.size()) + " units for " + std::to_string(columns.size()) +
                  " columns; allowed: one per column");
  for (std::size_t c = 0; c < columns.size(); ++c) columns[c].unit = units[c];
}

// The absolute path the table's samples attribute names, or "".
std::string samples_path_of(hid_t file, hid_t dataset, const std::string& path) {
  if (!has_attribute(dataset, kSamplesAttribute)) return {};
  const std::string samples = read_text_attribute(dataset, kSamplesAttribute);
  if (samples.empty()) return {};
  const std::string absolute = absolute_path(samples);
  if (!object_exists(file, absolute))
    bad_input(file, "attribute '" + path + "@" + kSamplesAttribute + "'",
              "names '" + samples + "', which is not in the file");
  return absolute;
}

// The samples dataset: 2-D floats, and the rows the table needs of it are
// in the file and fit in what the read may bring into memory.
void check_samples(hid_t file, const std::string& samples_path, hsize_t rows, const std::string& table_path,
                   ReadMeter& meter) {
  const std::string label = "samples dataset '" + samples_path + "' of table '" + table_path + "'";
  Handle dataset = open_object(file, samples_path);
  if (H5Iget_type(dataset.id()) != H5I_DATASET) bad_input(file, label, "is not a dataset");
  Handle type = checked_handle(H5Dget_type(dataset.id()), H5Tclose, file, "get the type of", samples_path);
  if (H5Tget_class(type.id()) != H5T_FLOAT)
    bad_input(file, label, "holds " + type_class_noun(type.id()) + "; allowed: floats (docs/hdf5-schema.md)");
  Handle space = checked_handle(H5Dget_space(dataset.id()), H5Sclose, file, "get the shape of", samples_path);
  const int rank = H5Sget_simple_extent_ndims(space.id());
  if (rank != 2) bad_input(file, label, "has " + std::to_string(rank) + " dimensions; allowed: 2 (rows x samples)");
  hsize_t extent[2] = {0, 0};
  checked(H5Sget_simple_extent_dims(space.id(), extent, nullptr), file, "get the shape of", samples_path);
  const hsize_t read_rows = std::min(rows, extent[0]);
  if (extent[1] > 0 && read_rows > std::numeric_limits<hsize_t>::max() / extent[1])
    bad_input(file, label, "declares more samples than can be counted");
  check_stored_size(file, dataset.id(), label, read_rows * extent[1], sizeof(double), "samples");
  if (extent[1] > std::numeric_limits<std::uint64_t>::max() / sizeof(double) - sizeof(std::vector<double>))
    bad_input(file, label, "declares more samples than can be counted");
  meter.admit(read_rows, sizeof(std::vector<double>) + extent[1] * sizeof(double), "rows of samples");
}

}  // namespace

Table read_table(hid_t file, const std::string& table_path, ReadBudget* budget) {
  const std::string path = absolute_path(table_path);
  if (!object_exists(file, path)) throw RuntimeFailure("HDF5: no table '" + path + "' in the file");
  Handle dataset = open_object(file, path);
  if (H5Iget_type(dataset.id()) != H5I_DATASET) bad_input(file, table_label(path), "is a group, not a dataset");
  const ReadPlan plan = plan_read(file, path, dataset.id());
  const hsize_t rows = length_of(file, dataset.id(), path);
  // Before anything is allocated: the declared rows must be in the file
  // (when it stores them unfiltered) and fit what a read may hold.
  ReadBudget own_budget;
  ReadMeter meter(budget != nullptr ? *budget : own_budget, file, table_label(path));
  check_stored_size(file, dataset.id(), table_label(path), rows, plan.stored_row_bytes, "rows");
  meter.admit(rows, std::max<std::uint64_t>(row_memory_bytes(plan), plan.stored_row_bytes), "rows");

  std::vector<Column> columns;
  for (const MemberReader& member : plan.members) columns.push_back(member.column);
  apply_units(file, dataset.id(), path, columns);
  const std::string samples_path = samples_path_of(file, dataset.id(), path);
  if (!samples_path.empty()) check_samples(file, samples_path, rows, path, meter);

  std::vector<std::vector<Value>> cells = read_all_rows(file, dataset.id(), path, plan, rows, meter);

  // A variable-length string column (a file written by another tool) gets
  // the width of its longest value, so the table can be written again.
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (columns[c].type != ColumnType::String || columns[c].width != 0) continue;
    std::size_t longest = 1;
    for (const auto& row : cells) longest = std::max(longest, row[c].as_string().size() + 1);
    columns[c].width = longest;
  }

  Table table(relative_path(path), std::move(columns), samples_path.empty() ? "" : relative_path(samples_path));
  std::vector<std::vector<double>> samples;
  if (!samples_path.empty()) samples = read_samples(file, samples_path, 0, rows, &meter);
  for (hsize_t r = 0; r < rows; ++r)
    table.add_row_values(std::move(cells[r]), samples.empty() ? std::vector<double>{} : std::move(samples[r]));
  std::vector<std::vector<Value>>().swap(cells);
  table.set_source(file_name(file));
  return table;
}

}  // namespace bws::h5
