#include "survey/FileSummary.hpp"

#include "h5/ResultFile.hpp"
#include "survey/Registry.hpp"

namespace bws::survey {

namespace {
std::string count(std::int64_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}
}  // namespace

std::vector<std::string> summarize_file(const std::string& path) {
  const auto file = h5::ResultReader::open(path);
  std::vector<std::string> lines;
  lines.push_back(path + ": bwsurvey " + file.attribute_text("/", "tool_version") + ", status " +
                  file.attribute_text("/", "status") + ", " + count(file.attribute_int("/", "n_nodes"), "node") + ", " +
                  count(file.attribute_int("/", "n_ranks"), "rank") + ", created " +
                  file.attribute_text("/", "created_utc"));
  for (const auto& entry : benchmark_registry()) {
    std::vector<Table> tables;
    for (const std::string& path : entry.report_tables)
      if (file.exists("/" + path)) tables.push_back(file.read_table(path));
    if (tables.empty()) continue;
    // A shared table (bs/fits holds the cpu and the ocl rows) may hold
    // nothing for this report: no blank line for it then.
    std::vector<std::string> report = entry.make_report()->summary_lines(tables);
    if (report.empty()) continue;
    lines.emplace_back();
    for (std::string& line : report) lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace bws::survey
