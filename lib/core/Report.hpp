#pragma once
// Turning records into text is separate from measuring (Google Benchmark's
// split): a benchmark's report reads the node-level tables that
// NodeBenchmark::summarize_node made, for every node, and returns lines.
// The console prints them; nothing here prints.
#include <string>
#include <vector>

#include "core/Table.hpp"

namespace bws {

class BenchmarkReport {
 public:
  virtual ~BenchmarkReport() = default;
  // node_tables: the summarize_node tables of all nodes, appended per path.
  virtual std::vector<std::string> summary_lines(const std::vector<Table>& node_tables) const = 0;
};

// Fixed-width text table: header row, then rows; columns right-aligned
// except the first. For terminal summaries.
std::vector<std::string> format_text_table(const std::vector<std::string>& header,
                                           const std::vector<std::vector<std::string>>& rows);

// value with `decimals` digits after the point ("12.35"); not_finite for a
// NaN or infinity (a figure that was not measured).
std::string fixed(double value, int decimals, const std::string& not_finite = "-");

// value to `digits` significant digits, trailing zeros dropped (printf's
// %g): 4 digits for a figure a person reads ("3.9", "1036"), 17 for one a
// program reads back exactly.
std::string significant(double value, int digits);

}  // namespace bws
