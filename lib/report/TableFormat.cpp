#include "report/TableFormat.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace bws::report {
namespace {

class CsvFormat : public TableFormat {
 public:
  std::string name() const override { return "csv"; }
  std::string extension() const override { return ".csv"; }
  std::string help() const override { return "CSV; header names carry units: bandwidth_Bps, t_min_s"; }
  void write(std::ostream& out, const Table& table, HeaderNames names) const override {
    write_csv(out, table, names);
  }
};

class JsonFormat : public TableFormat {
 public:
  std::string name() const override { return "json"; }
  std::string extension() const override { return ".json"; }
  std::string help() const override {
    return "JSON: an array of records, one object per row (pandas.read_json(orient=\"records\"))";
  }
  void write(std::ostream& out, const Table& table, HeaderNames names) const override {
    write_json(out, table, names);
  }
};

std::vector<std::unique_ptr<TableFormat>>& registry() {
  static std::vector<std::unique_ptr<TableFormat>> formats = [] {
    std::vector<std::unique_ptr<TableFormat>> built_in;
    // One line per format.
    built_in.push_back(std::make_unique<CsvFormat>());
    built_in.push_back(std::make_unique<JsonFormat>());
    return built_in;
  }();
  return formats;
}

bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

const std::vector<std::unique_ptr<TableFormat>>& table_formats() { return registry(); }

const TableFormat* find_table_format(std::string_view name) {
  for (const auto& f : registry())
    if (same_name(f->name(), name)) return f.get();
  return nullptr;
}

void register_table_format(std::unique_ptr<TableFormat> format) {
  if (find_table_format(format->name()))
    throw std::logic_error("register_table_format: a format '" + format->name() + "' is registered already");
  registry().push_back(std::move(format));
}

}  // namespace bws::report
