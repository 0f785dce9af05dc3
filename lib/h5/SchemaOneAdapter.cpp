#include "h5/SchemaOneAdapter.hpp"

#include <cmath>
#include <limits>

namespace bws::h5 {
namespace {

struct Upgrade {
  const char* path;      // the 2.x table
  const char* ocl_path;  // the 1.x table of the device rows
  std::vector<const char*> columns;  // the 2.x columns, in order
};

const std::vector<Upgrade>& upgrades() {
  static const std::vector<Upgrade> list = {
      {"stream/results", "ocl/stream/results",
       {"rank", "host", "backend", "kernel", "threads", "device", "type", "stores", "variant", "elements", "ntimes",
        "avg_rel_error", "error_limit", "ceiling", "bytes", "t_min", "t_avg", "t_max", "bandwidth", "valid"}},
      {"stream/nodes", "ocl/stream/nodes",
       {"host", "backend", "ranks", "threads", "devices", "device", "kernel", "type", "stores", "elements", "bytes",
        "t_min", "t_avg", "t_max", "bandwidth", "valid"}},
  };
  return list;
}

// A column neither 1.x table has (the nodes tables had no backend column).
Column fallback_column(const std::string& name) {
  if (name == "devices" || name == "threads") return int_column(name);
  if (name == "error_limit") return real_column(name);
  if (name == "ceiling") return real_column(name, "B/s");
  return text_column(name, name == "device" ? 128 : 48);
}

// What a 1.x row of `backend` lacks, by column.
Value missing_value(const Column& column, const std::string& backend) {
  if (column.name == "backend") return backend;
  if (column.name == "device") return backend == "cpu" ? std::string("cpu") : std::string();
  if (column.name == "devices") return std::int64_t{1};
  if (column.type == ColumnType::String) return std::string();
  if (column.type == ColumnType::Int64) return std::int64_t{0};
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

bool hidden_in_schema_one(const std::string& path) {
  for (const Upgrade& u : upgrades())
    if (path == u.ocl_path) return true;
  return false;
}

std::string schema_one_home(const std::string& path) {
  for (const Upgrade& u : upgrades())
    if (path == u.ocl_path) return u.path;
  return path;
}

std::optional<Table> upgraded_schema_one_table(const std::string& path, const StoredTableReader& read) {
  for (const Upgrade& u : upgrades()) {
    if (path != u.path) continue;
    const std::optional<Table> cpu = read(u.path), ocl = read(u.ocl_path);
    if (!cpu && !ocl) return std::nullopt;
    std::vector<Column> columns;
    for (const char* name : u.columns) {
      if (cpu && cpu->has_column(name))
        columns.push_back(cpu->columns()[cpu->column_index(name)]);
      else if (ocl && ocl->has_column(name))
        columns.push_back(ocl->columns()[ocl->column_index(name)]);
      else
        columns.push_back(fallback_column(name));
    }
    const Table& any = cpu ? *cpu : *ocl;
    Table out(u.path, columns, any.samples_path());
    for (const auto& [source, backend] : {std::pair{&cpu, "cpu"}, std::pair{&ocl, "ocl"}}) {
      if (!*source) continue;
      const Table& t = **source;
      for (std::size_t r = 0; r < t.rows(); ++r) {
        std::vector<Value> cells;
        for (const Column& c : columns)
          cells.push_back(t.has_column(c.name) ? t.at(r, c.name) : missing_value(c, backend));
        out.add_row_values(std::move(cells), t.has_samples() ? t.samples(r) : std::vector<double>{});
      }
    }
    out.set_source(any.source());
    return out;
  }
  return std::nullopt;
}

}  // namespace bws::h5
