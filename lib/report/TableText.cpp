#include "report/TableText.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <ostream>

namespace bws::report {
namespace {

std::string real_text(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  const auto [end, error] = std::to_chars(buf, buf + sizeof buf, v);
  return error == std::errc() ? std::string(buf, end) : std::to_string(v);
}

std::string csv_text(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string json_text(const std::string& s) {
  std::string q = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': q += "\\\""; break;
      case '\\': q += "\\\\"; break;
      case '\n': q += "\\n"; break;
      case '\r': q += "\\r"; break;
      case '\t': q += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          q += buf;
        } else {
          q += static_cast<char>(c);
        }
    }
  }
  return q + "\"";
}

std::string cell(const Value& v, bool json) {
  switch (v.type()) {
    case ColumnType::Int64: return std::to_string(v.as_int());
    case ColumnType::Float64:
      if (json && !std::isfinite(v.as_double())) return "null";
      return real_text(v.as_double());
    case ColumnType::String: return json ? json_text(v.as_string()) : csv_text(v.as_string());
  }
  return {};
}

}  // namespace

void write_csv(std::ostream& out, const Table& table) {
  const auto& columns = table.columns();
  for (std::size_t c = 0; c < columns.size(); ++c) out << (c ? "," : "") << csv_text(columns[c].name);
  out << "\n";
  for (std::size_t r = 0; r < table.rows(); ++r) {
    const auto& row = table.row(r);
    for (std::size_t c = 0; c < row.size(); ++c) out << (c ? "," : "") << cell(row[c], false);
    out << "\n";
  }
}

void write_json(std::ostream& out, const Table& table) {
  const auto& columns = table.columns();
  out << "{\"table\": " << json_text(table.path()) << ",\n \"columns\": [";
  for (std::size_t c = 0; c < columns.size(); ++c)
    out << (c ? ", " : "") << "{\"name\": " << json_text(columns[c].name) << ", \"unit\": " << json_text(columns[c].unit)
        << "}";
  out << "],\n \"rows\": [";
  for (std::size_t r = 0; r < table.rows(); ++r) {
    const auto& row = table.row(r);
    out << (r ? ",\n  " : "\n  ") << "{";
    for (std::size_t c = 0; c < row.size(); ++c)
      out << (c ? ", " : "") << json_text(columns[c].name) << ": " << cell(row[c], true);
    out << "}";
  }
  out << (table.rows() ? "\n ]}\n" : "]}\n");
}

}  // namespace bws::report
