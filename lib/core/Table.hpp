#pragma once
// Table: the one record type every benchmark returns. A named list of typed
// columns (name, type, unit) and rows, optionally with a vector of raw
// samples per row. MPI packing, the HDF5 writer, CSV/JSON export and the
// terminal summary are written once against it, never per benchmark.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/Value.hpp"

namespace bws {

struct Column {
  std::string name;
  ColumnType type = ColumnType::Int64;
  std::string unit;           // "B", "s", "B/s", "" when dimensionless
  std::size_t width = 0;      // String columns: fixed storage width in bytes (HDF5)
  bool operator==(const Column&) const = default;
};

// Shorthands for column declarations.
Column int_column(std::string name, std::string unit = "");
Column real_column(std::string name, std::string unit = "");
Column text_column(std::string name, std::size_t width);

class Table {
 public:
  Table() = default;
  // path: where the table lives in the HDF5 file, e.g. "stream/results".
  // samples_path: where the per-row samples go (a 2-D dataset), or empty.
  Table(std::string path, std::vector<Column> columns, std::string samples_path = {});

  const std::string& path() const { return path_; }
  const std::vector<Column>& columns() const { return columns_; }
  const std::string& samples_path() const { return samples_path_; }
  bool has_samples() const { return !samples_path_.empty(); }

  // Index of a column; throws std::out_of_range naming the column (UsageError
  // for a table read from a file, see source()).
  std::size_t column_index(std::string_view name) const;
  bool has_column(std::string_view name) const;

  // Adds a row given by name; every column must be given once, with its type
  // (an integer given for a real column is converted). Throws
  // std::invalid_argument on a missing, unknown or mistyped column.
  void add_row(std::initializer_list<std::pair<std::string_view, Value>> cells,
               std::vector<double> samples = {});
  // Adds a row in column order (used by unpacking and readers).
  void add_row_values(std::vector<Value> cells, std::vector<double> samples = {});

  std::size_t rows() const { return rows_.size(); }
  bool empty() const { return rows_.empty(); }
  const std::vector<Value>& row(std::size_t r) const { return rows_.at(r); }
  const std::vector<double>& samples(std::size_t r) const { return samples_.at(r); }
  // Longest sample vector of any row (the width of the 2-D samples dataset).
  std::size_t max_samples() const;

  const Value& at(std::size_t r, std::string_view column) const;
  std::int64_t get_int(std::size_t r, std::string_view column) const;
  double get_double(std::size_t r, std::string_view column) const;  // Int64 or Float64
  const std::string& get_string(std::size_t r, std::string_view column) const;
  // Replaces one cell (the column's type, or an integer for a real column).
  void set(std::size_t r, std::string_view column, Value value);

  // Where the table was read from (a result file's path), or "" for a table
  // built in this process. A table from a file is untrusted input: asking it
  // for a column it lacks, or for a number where it holds text, throws
  // bws::UsageError naming the file, dataset and column (a table built here
  // throws std::out_of_range / std::logic_error: a programming error).
  void set_source(std::string file) { source_ = std::move(file); }
  const std::string& source() const { return source_; }

  bool same_schema(const Table& other) const;
  // Appends the rows of a table with the same schema (throws otherwise).
  void append(const Table& other);
  void clear_rows();

 private:
  // The cell, when the column's type is one `fits` accepts; else throws (see source()).
  const Value& typed_cell(std::size_t r, std::string_view column, bool (*fits)(ColumnType), const char* wanted) const;

  std::string path_;
  std::vector<Column> columns_;
  std::string samples_path_;
  std::string source_;
  std::vector<std::vector<Value>> rows_;
  std::vector<std::vector<double>> samples_;
};

// The table of `tables` stored at `path`, or nullptr: a report finds its
// tables among those kept.
const Table* find_table(const std::vector<Table>& tables, std::string_view path);

// A flat byte image of tables (schema and rows) for moving them between
// ranks; unpack(pack(t)) == t.
std::vector<std::byte> pack_tables(const std::vector<Table>& tables);
std::vector<Table> unpack_tables(const std::byte* data, std::size_t size);

}  // namespace bws
