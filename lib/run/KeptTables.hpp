#pragma once
// What rank 0 keeps of the records it stores, for what it computes at the
// end of a run: each benchmark's report tables and node-metric tables (small:
// per node or per run, never per sample) and the node descriptions
// (/nodes/table, /nodes/memory_findings). The node flags, the cohorts and
// the summary are made from these, as `bwreport summary` makes them from
// the file.
#include <map>
#include <string>
#include <vector>

#include "core/Table.hpp"
#include "h5/ResultFile.hpp"
#include "model/Cohorts.hpp"
#include "model/NodeFlags.hpp"
#include "catalog/Registry.hpp"

namespace bws::run {

class KeptTables {
 public:
  // Every table a resume reads back (keep_stored), for --resume's checks.
  static std::vector<std::string> stored_paths(const std::vector<const CatalogEntry*>& tests);

  // A table just stored: kept when `entry` (nullptr: the run's metadata)
  // reads it.
  void keep(const Table& table, const CatalogEntry* entry);
  // A resumed file: the tables of the phases it holds whole, as if this
  // run had measured them, and its node descriptions.
  void keep_stored(const h5::ResultFile& file, const std::vector<const CatalogEntry*>& tests,
                   const std::vector<std::string>& completed);
  // The setup measures the nodes again.
  void forget_nodes() { nodes_.clear(); }

  // Every table kept for the reports and the node metrics.
  std::vector<Table> all() const;
  // The tables kept of one benchmark (none: it stored nothing).
  std::vector<Table> of(const CatalogEntry& entry) const;
  // /nodes/table, when known.
  const Table* nodes() const;
  // The hardware cohorts of the nodes (none before /nodes is known).
  model::NodeCohorts cohorts() const;
  // The flags of every kept table, within hardware cohorts, before any
  // retest; plus the memory-configuration flags.
  Table flags(const model::FlagSettings& settings) const;

 private:
  std::map<std::string, std::map<std::string, Table>> by_entry_;  // per benchmark, per path
  std::map<std::string, Table> nodes_;                            // nodes/table, nodes/memory_findings
};

}  // namespace bws::run
