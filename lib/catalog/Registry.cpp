#include "catalog/Registry.hpp"

#include "beff/BeffCatalogEntry.hpp"
#include "bs/BsCatalogEntry.hpp"
#include "ocl/OclBenchmark.hpp"
#include "ocl/OclCatalogEntry.hpp"
#include "pmbw/PmbwCatalogEntry.hpp"
#include "roofline/RooflineCatalogEntry.hpp"
#include "stream/StreamCatalogEntry.hpp"

namespace bws::survey {

const std::vector<RegistryEntry>& benchmark_registry() {
  static const std::vector<RegistryEntry> entries = {
      stream::catalog_entry(),
      // b_eff's PCIe path opens device buffers through lib/ocl (nullptr in a
      // build without OpenCL): lib/beff itself never depends on OpenCL.
      beff::catalog_entry(ocl::device_buffers_provider()),
      bs::catalog_entry(),
      pmbw::catalog_entry(),
      roofline::catalog_entry(),
      ocl::catalog_entry(),
  };
  return entries;
}

std::vector<NodeMetric> all_node_metrics() {
  std::vector<NodeMetric> metrics;
  for (const auto& e : benchmark_registry()) metrics.insert(metrics.end(), e.node_metrics.begin(), e.node_metrics.end());
  return metrics;
}

const RegistryEntry* find_benchmark(const std::string& name) {
  for (const auto& e : benchmark_registry())
    if (e.name == name) return &e;
  return nullptr;
}

std::optional<std::string> requested_listing(const Config& config) {
  for (const auto& e : benchmark_registry()) {
    if (e.collective()) continue;
    if (auto text = e.make_benchmark()->listing(config)) return text;
  }
  return std::nullopt;
}

}  // namespace bws::survey
