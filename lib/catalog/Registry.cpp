#include "catalog/Registry.hpp"

#include "backends/Backends.hpp"
#include "beff/BeffCatalogEntry.hpp"
#include "bs/BsCatalogEntry.hpp"
#include "pmbw/PmbwCatalogEntry.hpp"
#include "roofline/RooflineCatalogEntry.hpp"
#include "stream/StreamCatalogEntry.hpp"

namespace bws::survey {

const std::vector<RegistryEntry>& benchmark_registry() {
  static const std::vector<RegistryEntry> entries = {
      // The benchmarks with a device axis take their device implementations
      // from the backend list (lib/backends): none depends on a device library.
      stream::catalog_entry(backends::stream_backends()),
      beff::catalog_entry(backends::beff_device_buffers()),
      bs::catalog_entry(backends::bs_backends()),
      pmbw::catalog_entry(),
      roofline::catalog_entry(),
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
  return backends::requested_backend_listing(config);
}

}  // namespace bws::survey
