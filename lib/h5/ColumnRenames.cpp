#include "h5/ColumnRenames.hpp"

#include <utility>
#include <vector>

namespace bws::h5 {

Table with_current_column_names(Table table) {
  std::string_view path = table.path();
  if (!path.empty() && path.front() == '/') path.remove_prefix(1);
  std::vector<Column> columns = table.columns();
  bool renamed = false;
  for (const ColumnRename& r : kColumnRenames) {
    if (path != r.table || !table.has_column(r.old_name) || table.has_column(r.new_name)) continue;
    columns[table.column_index(r.old_name)].name = std::string(r.new_name);
    renamed = true;
  }
  if (!renamed) return table;
  Table out(table.path(), std::move(columns), table.samples_path());
  for (std::size_t row = 0; row < table.rows(); ++row)
    out.add_row_values(table.row(row), table.samples(row));
  out.set_source(table.source());
  return out;
}

}  // namespace bws::h5
