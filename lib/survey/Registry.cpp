#include "survey/Registry.hpp"

#include "beff/BeffBenchmark.hpp"
#include "bs/BsBenchmark.hpp"
#include "pmbw/PmbwBenchmark.hpp"
#include "roofline/RooflineBenchmark.hpp"
#include "stream/StreamBenchmark.hpp"

namespace bws::survey {

const std::vector<RegistryEntry>& benchmark_registry() {
  static const std::vector<RegistryEntry> entries = {
      {"stream", true, stream::make_stream_benchmark, nullptr, stream::make_stream_report, {"stream/nodes"}, nullptr},
      {"beff", true, nullptr, beff::make_beff_benchmark, beff::make_beff_report, {"beff/sizes", "beff/summary"}, nullptr},
      {"bs", false /*not in the default set: it is long*/, bs::make_bs_benchmark, nullptr, bs::make_bs_report, {"bs/fits"}, nullptr},
      {"pmbw", false /*not in the default set: hours at the default sizes*/, pmbw::make_pmbw_benchmark, nullptr,
       pmbw::make_pmbw_report, {"pmbw/nodes"}, pmbw::make_pmbw_exporter},
      {"roofline", false /*not in the default set*/, roofline::make_roofline_benchmark, nullptr, roofline::make_roofline_report, {"roofline/nodes"}, nullptr},
  };
  return entries;
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
  static const std::vector<std::string> names = {"ocl"};
  return names;
}

}  // namespace bws::survey
