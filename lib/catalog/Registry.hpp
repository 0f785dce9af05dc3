#pragma once
// The benchmarks bwsurvey knows: the list of the entries their folders
// export (core/CatalogEntry.hpp), in the order of catalog/benchmarks.list.
// Adding one is a folder under lib/ and one line in that list.
#include <optional>
#include <string>
#include <vector>

#include "core/CatalogEntry.hpp"
#include "core/Config.hpp"
#include "core/NodeMetric.hpp"

namespace bws::catalog {

const std::vector<CatalogEntry>& benchmark_registry();
const CatalogEntry* find_benchmark(const std::string& name);

// Every entry's node metrics, in registry order.
std::vector<NodeMetric> all_node_metrics();

// The first metric an entry declares as the survey's headline
// (NodeMetric::headline: STREAM Triad), or none in this build.
std::optional<NodeMetric> headline_metric();

// Whether a /flags metric is one of an entry's flag_metrics (a link map
// verdict): its row's reason names the subject, the report prints it alone.
bool is_subject_flag_metric(const std::string& metric);

// Every entry's run-wide summary lines (CatalogEntry::run_wide_lines), in
// registry order.
std::vector<std::string> run_wide_lines(const std::vector<Table>& kept);

// The first listing any benchmark's options ask for (NodeBenchmark::listing).
std::optional<std::string> requested_listing(const Config& config);

}  // namespace bws::catalog
