#pragma once
// What bwsurvey knows of one benchmark: each benchmark folder exports its
// own entry (stream::catalog_entry() in stream/StreamCatalogEntry.hpp), and
// the catalog is the list of them. The coordinator, the HDF5 writer, the
// console summary and bwreport work from these entries and from Tables only.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/ProgramOptionsFwd.hpp"

#include "core/Benchmark.hpp"
#include "core/CollectiveBenchmark.hpp"
#include "core/Config.hpp"
#include "core/NodeMetric.hpp"
#include "core/Report.hpp"
#include "core/TableExporter.hpp"

namespace bws {

// A flat table `bwreport export` writes besides the stored ones, made from
// stored tables (STREAM's BabelStream CSV views).
struct ExportView {
  std::string name;                        // "stream/babelstream": the export's file name
  std::vector<std::string> source_tables;  // the stored tables it reads
  std::function<Table(const std::vector<Table>&)> make;
  // Its column names are another tool's header (BabelStream's), exported as
  // they are; false: CSV/JSON headers get the columns' units (`bandwidth_Bps`).
  bool foreign_header = false;
};

// What a benchmark's own flags (CatalogEntry::make_flags) are judged with:
// the node flags' rule (--flags.k, --flags.fraction) and hardware cohorts
// (host -> cohort label; hosts missing form one cohort).
struct FlagInputs {
  double k = 0, fraction = 0;
  const std::map<std::string, std::string>* cohort_of_host = nullptr;
};

// A benchmark is either node-local (make_benchmark: every rank runs it on
// its own node) or collective (make_collective: all ranks run it together).
// Written with designated initializers in the benchmark's folder.
struct CatalogEntry {
  std::string name;
  bool in_default_set = false;  // run when --tests is not given
  std::function<std::unique_ptr<NodeBenchmark>()> make_benchmark = nullptr;
  std::function<std::unique_ptr<CollectiveBenchmark>()> make_collective = nullptr;
  std::function<std::unique_ptr<BenchmarkReport>()> make_report = nullptr;
  // The tables its report reads: kept by rank 0 during the run, and read
  // back from the file by `bwreport summary`.
  std::vector<std::string> report_tables = {};
  // Optional: an exporter the options ask for (e.g. --pmbw.stats FILE), made
  // on rank 0 at planning time (a UsageError if it cannot write), or nullptr.
  std::function<std::unique_ptr<TableExporter>(const Config&)> make_exporter = nullptr;
  // The node-level metrics that flag slow nodes (/flags) and that --reference
  // files name, one line each: {name, table, column, unit, rows, groups, ...}.
  std::vector<NodeMetric> node_metrics = {};
  // Optional: flags that are not one value per node (the link map's
  // verdicts), as rows of the /flags table (model::make_flags_table), from
  // the kept tables (all benchmarks'; it reads its own report_tables, which
  // must list every table it needs: a file's flags are recomputed from them).
  std::function<Table(const std::vector<Table>& kept, const FlagInputs&)> make_flags = nullptr;
  // The metrics of make_flags' rows ("links.pair"): such a row's subject is
  // not one node's value against a cohort median but a link or an uplink,
  // and its reason says it all, so reports print the metric and the reason.
  std::vector<std::string> flag_metrics = {};
  // The metrics that retest make_flags' node rows (the link map's
  // links.node_out from /links/nodes out_Bps): one value per host, named as
  // the row's metric, read only by --retest (model::apply_retests compares a
  // retest round's value with the row's threshold). The node flags never
  // judge them: the entry's own rule made those rows.
  std::vector<NodeMetric> retest_metrics = {};
  // Optional: the console summary's lines for the run as a whole (b_eff's
  // bandwidth and scaling verdict), from the kept tables (its report_tables).
  std::function<std::vector<std::string>(const std::vector<Table>& kept)> run_wide_lines = nullptr;
  // Extra flat tables for `bwreport export`.
  std::vector<ExportView> export_views = {};

  bool collective() const { return static_cast<bool>(make_collective); }
  // What a retest round of the entry is read with: its node metrics, then
  // its retest metrics.
  std::vector<NodeMetric> retested_by() const {
    std::vector<NodeMetric> metrics = node_metrics;
    metrics.insert(metrics.end(), retest_metrics.begin(), retest_metrics.end());
    return metrics;
  }
  std::string description() const;
  void add_options(boost::program_options::options_description& desc) const;
};

}  // namespace bws
