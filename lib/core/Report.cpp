#include "core/Report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace bws {

std::vector<std::string> format_text_table(const std::vector<std::string>& header,
                                           const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width(header.size(), 0);
  auto measure = [&](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size() && i < width.size(); ++i) width[i] = std::max(width[i], row[i].size());
  };
  measure(header);
  for (const auto& r : rows) measure(r);

  auto line = [&](const std::vector<std::string>& row) {
    std::string out;
    for (std::size_t i = 0; i < width.size(); ++i) {
      const std::string cell = i < row.size() ? row[i] : "";
      const std::string pad(width[i] - cell.size(), ' ');
      if (i > 0) out += "  ";
      out += i == 0 ? cell + pad : pad + cell;  // first column left, numbers right
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
  };
  std::vector<std::string> lines;
  lines.push_back(line(header));
  for (const auto& r : rows) lines.push_back(line(r));
  return lines;
}

std::string fixed(double value, int decimals, const std::string& not_finite) {
  if (!std::isfinite(value)) return not_finite;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string significant(double value, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, value);
  return buf;
}

}  // namespace bws
