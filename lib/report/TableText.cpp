#include "report/TableText.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <ostream>
#include <vector>

#include "core/PrintableText.hpp"

namespace bws::report {
namespace {

std::string real_text(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  const auto [end, error] = std::to_chars(buf, buf + sizeof buf, v);
  return error == std::errc() ? std::string(buf, end) : std::to_string(v);
}

// Text cells and names are valid UTF-8 in both formats (core/PrintableText.hpp).
std::string csv_text(const std::string& raw) {
  const std::string s = with_utf8_escapes(raw);
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string json_text(const std::string& raw) {
  const std::string s = with_utf8_escapes(raw);
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

// The known units: their suffix first, then other spellings a name may
// already hold them in.
const std::map<std::string, std::vector<std::string>>& unit_spellings() {
  static const std::map<std::string, std::vector<std::string>> spellings = {
      {"B/s", {"Bps", "B_per_s", "bytes_per_s", "bytes_per_second", "bytes_per_sec"}},
      {"s", {"s", "seconds", "second", "sec"}},
      {"B", {"bytes", "B", "byte"}},
      {"MB/s", {"MBps", "MB_per_sec", "MB_per_s", "mbytes_per_sec"}},
      {"FLOP", {"flop", "flops"}},
      {"FLOP/s", {"flop_per_s", "flops_per_s", "flop_per_second"}},
      {"FLOP/B", {"flop_per_byte", "flop_per_B"}},
  };
  return spellings;
}

std::vector<std::string> words(const std::string& name) {
  std::vector<std::string> out(1);
  for (char c : name) {
    if (c == '_')
      out.emplace_back();
    else
      out.back() += c;
  }
  return out;
}

// Whether `name`'s words hold `spelling`'s words one after another.
bool holds(const std::string& name, const std::string& spelling) {
  const std::vector<std::string> n = words(name), s = words(spelling);
  return std::search(n.begin(), n.end(), s.begin(), s.end()) != n.end();
}

std::string name_of(const Column& column, HeaderNames names) {
  return names == HeaderNames::WithUnits ? header_name(column) : column.name;
}

}  // namespace

std::string unit_suffix(const std::string& unit) {
  const auto known = unit_spellings().find(unit);
  if (known != unit_spellings().end()) return known->second.front();
  std::string suffix;
  for (char c : unit) {
    if (c == '/')
      suffix += "_per_";
    else
      suffix += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  }
  return suffix;
}

std::string header_name(const Column& column) {
  if (column.unit.empty()) return column.name;
  const auto known = unit_spellings().find(column.unit);
  const std::vector<std::string> spellings =
      known != unit_spellings().end() ? known->second : std::vector<std::string>{unit_suffix(column.unit)};
  for (const std::string& spelling : spellings)
    if (holds(column.name, spelling)) return column.name;
  return column.name + "_" + spellings.front();
}

void write_csv(std::ostream& out, const Table& table, HeaderNames names) {
  const auto& columns = table.columns();
  for (std::size_t c = 0; c < columns.size(); ++c) out << (c ? "," : "") << csv_text(name_of(columns[c], names));
  out << "\n";
  for (std::size_t r = 0; r < table.rows(); ++r) {
    const auto& row = table.row(r);
    for (std::size_t c = 0; c < row.size(); ++c) out << (c ? "," : "") << cell(row[c], false);
    out << "\n";
  }
}

void write_json(std::ostream& out, const Table& table, HeaderNames names) {
  std::vector<std::string> keys;
  for (const Column& column : table.columns()) keys.push_back(json_text(name_of(column, names)));
  out << "[";
  for (std::size_t r = 0; r < table.rows(); ++r) {
    const auto& row = table.row(r);
    out << (r ? ",\n " : "\n ") << "{";
    for (std::size_t c = 0; c < row.size(); ++c) out << (c ? ", " : "") << keys[c] << ": " << cell(row[c], true);
    out << "}";
  }
  out << (table.rows() ? "\n]\n" : "]\n");
}

}  // namespace bws::report
