#pragma once
// /flags as bwsurvey writes it, with one confirmed flag: for the tests that
// write survey files by hand (hostile files, file-guard cases).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/Table.hpp"
#include "model/NodeFlags.hpp"

namespace bws::test {

// /flags as bwsurvey writes it, one confirmed flag on `host`. With
// `text_column` given, that column is text instead of its own type.
inline bws::Table flags_table(const std::string& host, const std::string& text_column = "") {
  const bws::Table real = bws::model::make_flags_table();
  std::vector<bws::Column> columns = real.columns();
  for (bws::Column& c : columns)
    if (c.name == text_column) c = bws::text_column(c.name, 16);
  bws::Table t(real.path(), columns);
  std::vector<bws::Value> row;
  for (const bws::Column& c : columns) {
    if (c.name == "host") row.emplace_back(host);
    else if (c.name == "metric") row.emplace_back("stream.triad[double]");
    else if (c.name == "unit") row.emplace_back("B/s");
    else if (c.name == "status") row.emplace_back(bws::model::kFlagConfirmed);
    else if (c.name == "value") row.emplace_back(4.0e9);
    else if (c.name == "median") row.emplace_back(9.0e9);
    else if (c.type == bws::ColumnType::String) row.emplace_back("x");
    else if (c.type == bws::ColumnType::Int64) row.emplace_back(2);
    else row.emplace_back(44.4);
  }
  t.add_row_values(row);
  return t;
}

// One row of a /flags table with the cells given by column name; every
// other cell its column's empty value ("", NaN, 0), so that a column added
// to /flags later gets a default instead of breaking a test.
inline void add_flags_row(bws::Table& t, const std::vector<std::pair<std::string, bws::Value>>& given) {
  std::vector<bws::Value> row;
  row.reserve(t.columns().size());
  for (const bws::Column& c : t.columns()) {
    const auto it = std::find_if(given.begin(), given.end(), [&](const auto& g) { return g.first == c.name; });
    if (it != given.end()) row.emplace_back(it->second);
    else if (c.type == bws::ColumnType::String) row.emplace_back("");
    else if (c.type == bws::ColumnType::Float64) row.emplace_back(std::nan(""));
    else row.emplace_back(std::int64_t{0});
  }
  t.add_row_values(std::move(row));
}

}  // namespace bws::test
