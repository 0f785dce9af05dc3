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

// The first listing any benchmark's options ask for (NodeBenchmark::listing).
std::optional<std::string> requested_listing(const Config& config);

}  // namespace bws::catalog
