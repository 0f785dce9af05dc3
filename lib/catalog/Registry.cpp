#include "catalog/Registry.hpp"

#include <memory>
#include <type_traits>

#include "backends/Backends.hpp"
#include "bws/CatalogList.hpp"  // generated from catalog/benchmarks.list

namespace bws::catalog {
namespace {

// What a folder's catalog_entry may take: nothing, or its device
// implementations from the backend list (lib/backends), chosen by the
// parameter's type. So no benchmark depends on a device library, and a
// benchmark without a device axis (pmbw, load) takes nothing. A new kind of
// device interface is one more conversion here.
struct BackendServices {
  operator stream::StreamBackends() const { return backends::stream_backends(); }
  operator bs::BsBackends() const { return backends::bs_backends(); }
  operator std::shared_ptr<const DeviceBuffersProvider>() const { return backends::beff_device_buffers(); }
};

template <class CatalogEntryOf>
CatalogEntry entry_of(CatalogEntryOf catalog_entry_of) {
  if constexpr (std::is_invocable_v<CatalogEntryOf, const BackendServices&>)
    return catalog_entry_of(BackendServices{});
  else
    return catalog_entry_of();
}

}  // namespace

const std::vector<CatalogEntry>& benchmark_registry() {
  // One entry per line of catalog/benchmarks.list, in its order.
#define BWS_CATALOG_ENTRY(folder)                                                       \
  entry_of([](const auto&... args) -> decltype(::bws::folder::catalog_entry(args...)) { \
    return ::bws::folder::catalog_entry(args...);                                       \
  }),
  static const std::vector<CatalogEntry> entries = {BWS_CATALOG_FOLDERS(BWS_CATALOG_ENTRY)};
#undef BWS_CATALOG_ENTRY
  return entries;
}

std::vector<NodeMetric> all_node_metrics() {
  std::vector<NodeMetric> metrics;
  for (const auto& e : benchmark_registry()) metrics.insert(metrics.end(), e.node_metrics.begin(), e.node_metrics.end());
  return metrics;
}

std::optional<NodeMetric> headline_metric() {
  for (const auto& e : benchmark_registry())
    for (const NodeMetric& m : e.node_metrics)
      if (!m.headline.empty()) return m;
  return std::nullopt;
}

bool is_subject_flag_metric(const std::string& metric) {
  for (const auto& e : benchmark_registry())
    for (const std::string& own : e.flag_metrics)
      if (own == metric) return true;
  return false;
}

std::vector<std::string> run_wide_lines(const std::vector<Table>& kept) {
  std::vector<std::string> lines;
  for (const auto& e : benchmark_registry()) {
    if (!e.run_wide_lines) continue;
    std::vector<std::string> own = e.run_wide_lines(kept);
    lines.insert(lines.end(), own.begin(), own.end());
  }
  return lines;
}

const CatalogEntry* find_benchmark(const std::string& name) {
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

}  // namespace bws::catalog
