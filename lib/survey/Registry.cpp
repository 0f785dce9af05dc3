#include "survey/Registry.hpp"

#include "beff/BeffBenchmark.hpp"
#include "bs/BsBenchmark.hpp"
#include "ocl/OclBenchmark.hpp"
#include "stream/StreamBenchmark.hpp"

namespace bws::survey {

const std::vector<RegistryEntry>& benchmark_registry() {
  // b_eff's PCIe path opens device buffers through lib/ocl (nullptr in a
  // build without OpenCL): lib/beff itself never depends on OpenCL.
  const auto make_beff = [] { return beff::make_beff_benchmark(ocl::device_buffers_provider()); };
  static const std::vector<RegistryEntry> entries = {
      {"stream", true, stream::make_stream_benchmark, nullptr, stream::make_stream_report, {"stream/nodes"}, nullptr, {}},
      {"beff", true, nullptr, make_beff, beff::make_beff_report, {"beff/sizes", "beff/summary"}, nullptr, {}},
      {"bs", false /*not in the default set: it is long*/, bs::make_bs_benchmark, nullptr, bs::make_bs_report, {"bs/fits"}, nullptr, {}},
      {"ocl", false /*needs an OpenCL device*/, ocl::make_ocl_benchmark, nullptr, ocl::make_ocl_report,
       {"ocl/stream/nodes", "bs/fits"}, nullptr, {{"beff", {{"beff.path", "device"}}, ocl::wants_device_beff}}},
  };
  return entries;
}

std::string CompanionPhase::label() const {
  std::string text;
  for (const auto& [key, value] : settings) text += (text.empty() ? "" : ", ") + key + "=" + value;
  return name + " (" + text + ")";
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
  return std::nullopt;
}

const std::vector<std::string>& planned_benchmarks() {
  static const std::vector<std::string> names = {"pmbw", "roofline"};
  return names;
}

}  // namespace bws::survey
