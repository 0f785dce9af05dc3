#include "survey/Registry.hpp"

#include "backends/Backends.hpp"
#include "beff/BeffBenchmark.hpp"
#include "bs/BsBenchmark.hpp"
#include "bs/BsPlan.hpp"
#include "bs/BsTypes.hpp"
#include "pmbw/PmbwBenchmark.hpp"
#include "roofline/RooflineBenchmark.hpp"
#include "stream/StreamBabelStream.hpp"
#include "stream/StreamBenchmark.hpp"

namespace bws::survey {
namespace {

// The group texts of the node metrics (NodeMetric::group_values): STREAM's
// element types, BS's test labels and degrees (0 for BS1-BS5).
const std::vector<std::string> kStreamTypes = {"double", "float"};

std::vector<std::string> bs_test_labels() {
  std::vector<std::string> labels;
  for (const bs::BsTestSpec& spec : bs::kBsTests) labels.emplace_back(spec.label);
  return labels;
}

std::vector<std::string> bs_degree_labels() {
  std::vector<std::string> labels = {"0"};
  for (int d = bs::kMinDegree; d <= bs::kMaxDegree; ++d) labels.push_back(std::to_string(d));
  return labels;
}

}  // namespace

const std::vector<RegistryEntry>& benchmark_registry() {
  // The benchmarks take their device implementations from the backend
  // list (lib/backends): none of them depends on a device library.
  const auto make_beff = [] { return beff::make_beff_benchmark(backends::beff_device_buffers()); };
  const auto make_stream = [] { return stream::make_stream_benchmark(backends::stream_backends()); };
  const auto make_bs = [] { return bs::make_bs_benchmark(backends::bs_backends()); };
  static const std::vector<RegistryEntry> entries = {
      {"stream", true, make_stream, nullptr, stream::make_stream_report, {"stream/nodes"}, nullptr,
       {{.name = "stream.triad", .table = "stream/nodes", .column = "bandwidth", .unit = "B/s",
         .where = {{"kernel", "Triad"}, {"backend", "cpu"}}, .group_by = {"type"}, .group_values = {kStreamTypes}},
        // Device rows: cohorts add the device's name (two GPU models are two cohorts).
        {.name = "ocl.triad", .table = "stream/nodes", .column = "bandwidth", .unit = "B/s",
         .where = {{"kernel", "Triad"}, {"backend", "ocl"}}, .group_by = {"type"}, .cohort_column = "device",
         .group_values = {kStreamTypes}}},
       {{"stream/babelstream", {"stream/results"}, stream::babelstream_table}}},
      {"beff", true, nullptr, make_beff, beff::make_beff_report, {"beff/sizes", "beff/summary"}, nullptr,
       {{"beff.per_rank", "beff/ranks", "b_eff_Bps", "B/s", {}, {}, model::HostAggregate::Mean}}},
      {"bs", false /*not in the default set: it is long*/, make_bs, nullptr, bs::make_bs_report, {"bs/fits"}, nullptr,
       {{.name = "bs.wmax", .table = "bs/fits", .column = "Wmax_Bps", .unit = "B/s",
         .where = {{"fitted", "1"}, {"backend", "cpu"}}, .group_by = {"test", "degree"},
         .group_values = {bs_test_labels(), bs_degree_labels()}}}},
      {"pmbw", false /*not in the default set: hours at the default sizes*/, pmbw::make_pmbw_benchmark, nullptr,
       pmbw::make_pmbw_report, {"pmbw/nodes"}, pmbw::make_pmbw_exporter,
       {{"pmbw.scan_ram", "pmbw/nodes", "scan_ram_Bps", "B/s"},
        {"pmbw.perm_ram_latency", "pmbw/nodes", "perm_ram_access_seconds", "s", {}, {}, model::HostAggregate::Mean, false}}},
      {"roofline", false /*not in the default set*/, roofline::make_roofline_benchmark, nullptr,
       roofline::make_roofline_report, {"roofline/nodes"}, nullptr},
  };
  return entries;
}

std::vector<model::NodeMetric> all_node_metrics() {
  std::vector<model::NodeMetric> metrics;
  for (const auto& e : benchmark_registry()) metrics.insert(metrics.end(), e.node_metrics.begin(), e.node_metrics.end());
  return metrics;
}

std::string RegistryEntry::description() const {
  return collective() ? make_collective()->description() : make_benchmark()->description();
}

void RegistryEntry::add_options(boost::program_options::options_description& desc) const {
  if (collective())
    make_collective()->add_options(desc);
  else
    make_benchmark()->add_options(desc);
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

const std::vector<std::string>& planned_benchmarks() {
  static const std::vector<std::string> names = {};
  return names;
}

}  // namespace bws::survey
