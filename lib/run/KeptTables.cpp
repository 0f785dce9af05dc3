#include "run/KeptTables.hpp"

#include "catalog/SurveyFlags.hpp"
#include "core/ResultColumns.hpp"
#include "model/MemoryFlags.hpp"
#include "report/RunSummary.hpp"
#include "run/RunText.hpp"

namespace bws::run {
namespace {

const std::vector<std::string>& node_paths() {
  static const std::vector<std::string> paths = {"nodes/table", "nodes/memory_findings"};
  return paths;
}

void add(std::map<std::string, Table>& kept, const Table& table) {
  auto [it, fresh] = kept.try_emplace(table.path(), table);
  if (!fresh) it->second.append(table);
}

}  // namespace

std::vector<std::string> KeptTables::stored_paths(const std::vector<const CatalogEntry*>& tests) {
  std::vector<std::string> paths = {kChecksPath};
  for (const CatalogEntry* entry : tests)
    for (const std::string& path : report::summary_tables(*entry)) paths.push_back(path);
  for (const std::string& path : node_paths()) paths.push_back(path);
  return paths;
}

void KeptTables::keep(const Table& table, const CatalogEntry* entry) {
  if (!entry) {
    if (contains(node_paths(), table.path())) add(nodes_, table);
    return;
  }
  if (contains(report::summary_tables(*entry), table.path())) add(by_entry_[entry->name], table);
}

void KeptTables::keep_stored(const h5::ResultFile& file, const std::vector<const CatalogEntry*>& tests,
                             const std::vector<std::string>& completed) {
  for (const CatalogEntry* entry : tests) {
    if (!contains(completed, entry->name)) continue;
    for (const std::string& path : report::summary_tables(*entry))
      if (file.exists("/" + path)) by_entry_[entry->name].insert_or_assign(path, file.read_table(path));
  }
  for (const std::string& path : node_paths())
    if (file.exists("/" + path)) add(nodes_, file.read_table(path));
}

std::vector<Table> KeptTables::all() const {
  std::vector<Table> tables;
  for (const auto& [name, kept] : by_entry_)
    for (const auto& [path, table] : kept) tables.push_back(table);
  return tables;
}

std::vector<Table> KeptTables::of(const CatalogEntry& entry) const {
  std::vector<Table> tables;
  if (const auto it = by_entry_.find(entry.name); it != by_entry_.end())
    for (const auto& [path, table] : it->second) tables.push_back(table);
  return tables;
}

const Table* KeptTables::nodes() const {
  const auto it = nodes_.find("nodes/table");
  return it == nodes_.end() ? nullptr : &it->second;
}

model::NodeCohorts KeptTables::cohorts() const {
  return nodes() ? model::node_cohorts(*nodes()) : model::NodeCohorts{};
}

Table KeptTables::flags(const model::FlagSettings& settings) const {
  const model::NodeCohorts cohorts = this->cohorts();
  Table flags = catalog::survey_flags(all(), settings, cohorts);
  if (nodes()) {
    const auto findings = nodes_.find("nodes/memory_findings");
    flags.append(model::memory_flags(*nodes(), findings == nodes_.end() ? Table() : findings->second, cohorts));
  }
  return flags;
}

}  // namespace bws::run
