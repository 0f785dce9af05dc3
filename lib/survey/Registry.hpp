#pragma once
// The benchmarks bwsurvey knows. Adding one is a folder under lib/ and one
// entry here: the coordinator, the HDF5 writer and the console summary work
// from these entries and from Tables only.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/Benchmark.hpp"
#include "core/CollectiveBenchmark.hpp"
#include "core/Report.hpp"
#include "core/TableExporter.hpp"
#include "model/NodeMetrics.hpp"

namespace bws::survey {

// A flat table `bwreport export` writes besides the stored ones, made from
// stored tables (STREAM's BabelStream-style CSV).
struct ExportView {
  std::string name;                        // "stream/babelstream": the export's file name
  std::vector<std::string> source_tables;  // the stored tables it reads
  std::function<Table(const std::vector<Table>&)> make;
};

// A benchmark is either node-local (make_benchmark: every rank runs it on
// its own node) or collective (make_collective: all ranks run it together).
struct RegistryEntry {
  std::string name;
  bool in_default_set;  // run when --tests is not given
  std::function<std::unique_ptr<NodeBenchmark>()> make_benchmark;
  std::function<std::unique_ptr<CollectiveBenchmark>()> make_collective;
  std::function<std::unique_ptr<BenchmarkReport>()> make_report;
  // The tables its report reads: kept by rank 0 during the run, and read
  // back from the file by `bwreport summary`.
  std::vector<std::string> report_tables;
  // Optional: an exporter the options ask for (e.g. --pmbw.stats FILE), made
  // on rank 0 at planning time (a UsageError if it cannot write), or nullptr.
  std::function<std::unique_ptr<TableExporter>(const Config&)> make_exporter;
  // The node-level metrics that flag slow nodes (/flags) and that --reference
  // files name, one line each: {name, table, column, unit, rows, groups, ...}.
  std::vector<model::NodeMetric> node_metrics = {};
  // Extra flat tables for `bwreport export`.
  std::vector<ExportView> export_views = {};

  bool collective() const { return static_cast<bool>(make_collective); }
  std::string description() const;
  void add_options(boost::program_options::options_description& desc) const;
};

const std::vector<RegistryEntry>& benchmark_registry();
const RegistryEntry* find_benchmark(const std::string& name);

// Every entry's node metrics, in registry order.
std::vector<model::NodeMetric> all_node_metrics();

// The first listing any benchmark's options ask for (NodeBenchmark::listing).
std::optional<std::string> requested_listing(const Config& config);

// Names DESIGN.md lists that this build does not have yet; --tests names
// them as "not available in this version" rather than "unknown".
const std::vector<std::string>& planned_benchmarks();

}  // namespace bws::survey
