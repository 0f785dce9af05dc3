#include "core/Table.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/Errors.hpp"
#include "core/PrintableText.hpp"

namespace bws {

Column int_column(std::string name, std::string unit) {
  return Column{std::move(name), ColumnType::Int64, std::move(unit), 0};
}
Column real_column(std::string name, std::string unit) {
  return Column{std::move(name), ColumnType::Float64, std::move(unit), 0};
}
Column text_column(std::string name, std::size_t width) {
  return Column{std::move(name), ColumnType::String, "", width};
}

Table::Table(std::string path, std::vector<Column> columns, std::string samples_path)
    : path_(std::move(path)), columns_(std::move(columns)), samples_path_(std::move(samples_path)) {}

std::size_t Table::column_index(std::string_view name) const {
  for (std::size_t i = 0; i < columns_.size(); ++i)
    if (columns_[i].name == name) return i;
  if (!source_.empty())
    throw UsageError("'" + printable_text(source_, 200) + "': table '/" + printable_text(path_, 200) +
                     "' has no column '" + printable_text(name, 100) + "' (see docs/hdf5-schema.md)");
  throw std::out_of_range("table '" + path_ + "' has no column '" + std::string(name) + "'");
}

bool Table::has_column(std::string_view name) const {
  return std::any_of(columns_.begin(), columns_.end(), [&](const Column& c) { return c.name == name; });
}

namespace {
// A cell must have its column's type; an integer may fill a real column.
Value conform(const Column& column, Value value, const std::string& table) {
  if (value.type() == column.type) return value;
  if (column.type == ColumnType::Float64 && value.type() == ColumnType::Int64)
    return Value(static_cast<double>(value.as_int()));
  throw std::invalid_argument("table '" + table + "': column '" + column.name + "' given a value of the wrong type");
}
}  // namespace

void Table::add_row(std::initializer_list<std::pair<std::string_view, Value>> cells, std::vector<double> samples) {
  std::vector<Value> row(columns_.size());
  std::vector<bool> given(columns_.size(), false);
  for (const auto& [name, value] : cells) {
    std::size_t i = 0;
    while (i < columns_.size() && columns_[i].name != name) ++i;
    if (i == columns_.size())
      throw std::invalid_argument("table '" + path_ + "' has no column '" + std::string(name) + "'");
    if (given[i]) throw std::invalid_argument("table '" + path_ + "': column '" + std::string(name) + "' given twice");
    row[i] = conform(columns_[i], value, path_);
    given[i] = true;
  }
  for (std::size_t i = 0; i < columns_.size(); ++i)
    if (!given[i]) throw std::invalid_argument("table '" + path_ + "': column '" + columns_[i].name + "' not given");
  rows_.push_back(std::move(row));
  samples_.push_back(std::move(samples));
}

void Table::add_row_values(std::vector<Value> cells, std::vector<double> samples) {
  if (cells.size() != columns_.size())
    throw std::invalid_argument("table '" + path_ + "': row has " + std::to_string(cells.size()) + " cells, expected " +
                                std::to_string(columns_.size()));
  for (std::size_t i = 0; i < cells.size(); ++i) cells[i] = conform(columns_[i], std::move(cells[i]), path_);
  rows_.push_back(std::move(cells));
  samples_.push_back(std::move(samples));
}

std::size_t Table::max_samples() const {
  std::size_t width = 0;
  for (const auto& s : samples_) width = std::max(width, s.size());
  return width;
}

namespace {
const char* type_noun(ColumnType type) {
  switch (type) {
    case ColumnType::Int64: return "integers";
    case ColumnType::Float64: return "reals";
    case ColumnType::String: return "text";
  }
  return "?";
}
}  // namespace

const Value& Table::typed_cell(std::size_t r, std::string_view column, bool (*fits)(ColumnType),
                               const char* wanted) const {
  const std::size_t c = column_index(column);
  if (!fits(columns_[c].type)) {
    const std::string what = "column '" + printable_text(column, 100) + "' holds " + type_noun(columns_[c].type) +
                             " where " + wanted + " belong";
    if (!source_.empty())
      throw UsageError("'" + printable_text(source_, 200) + "': table '/" + printable_text(path_, 200) + "': " + what +
                       " (see docs/hdf5-schema.md)");
    throw std::logic_error("table '" + path_ + "': " + what);
  }
  return rows_.at(r)[c];
}

const Value& Table::at(std::size_t r, std::string_view column) const { return rows_.at(r)[column_index(column)]; }
std::int64_t Table::get_int(std::size_t r, std::string_view column) const {
  return typed_cell(r, column, [](ColumnType t) { return t == ColumnType::Int64; }, "integers").as_int();
}
double Table::get_double(std::size_t r, std::string_view column) const {
  return typed_cell(r, column, [](ColumnType t) { return t != ColumnType::String; }, "numbers").as_number();
}
const std::string& Table::get_string(std::size_t r, std::string_view column) const {
  return typed_cell(r, column, [](ColumnType t) { return t == ColumnType::String; }, "text").as_string();
}

void Table::set(std::size_t r, std::string_view column, Value value) {
  const std::size_t c = column_index(column);
  rows_.at(r)[c] = conform(columns_[c], std::move(value), path_);
}

bool Table::same_schema(const Table& other) const {
  return path_ == other.path_ && columns_ == other.columns_ && samples_path_ == other.samples_path_;
}

void Table::append(const Table& other) {
  if (!same_schema(other)) throw std::invalid_argument("cannot append table '" + other.path_ + "' to '" + path_ + "': schemas differ");
  rows_.insert(rows_.end(), other.rows_.begin(), other.rows_.end());
  samples_.insert(samples_.end(), other.samples_.begin(), other.samples_.end());
}

void Table::clear_rows() {
  rows_.clear();
  samples_.clear();
}

const Table* find_table(const std::vector<Table>& tables, std::string_view path) {
  for (const Table& t : tables)
    if (t.path() == path) return &t;
  return nullptr;
}

}  // namespace bws
