#pragma once
// The text formats `bwreport export` writes a table in (Google Benchmark's
// one reporter class per format): each format is one class, and one line of
// the table in TableFormat.cpp registers it. `--format NAME` offers every
// registered format, --help lists them, and a directory export names its
// files after the format's extension. CSV and JSON are the two built in.
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/Table.hpp"
#include "report/TableText.hpp"

namespace bws::report {

class TableFormat {
 public:
  virtual ~TableFormat() = default;
  virtual std::string name() const = 0;       // "csv": --format csv, and the directory's "-csv"
  virtual std::string extension() const = 0;  // ".csv": each file of a directory export
  virtual std::string help() const = 0;       // one phrase for --help
  // The whole table; `names` says whether headers carry units.
  virtual void write(std::ostream& out, const Table& table, HeaderNames names) const = 0;
};

// Every registered format, in registration order.
const std::vector<std::unique_ptr<TableFormat>>& table_formats();
// The format called `name` (any case), or nullptr.
const TableFormat* find_table_format(std::string_view name);
// Adds a format after the built-in ones (a test's toy format, a site's
// own); std::logic_error when its name is taken.
void register_table_format(std::unique_ptr<TableFormat> format);

}  // namespace bws::report
