#include "survey/Registry.hpp"

#include "stream/StreamBenchmark.hpp"

namespace bws::survey {

const std::vector<RegistryEntry>& benchmark_registry() {
  static const std::vector<RegistryEntry> entries = {
      {"stream", true, stream::make_stream_benchmark, stream::make_stream_report},
  };
  return entries;
}

const RegistryEntry* find_benchmark(const std::string& name) {
  for (const auto& e : benchmark_registry())
    if (e.name == name) return &e;
  return nullptr;
}

const std::vector<std::string>& planned_benchmarks() {
  static const std::vector<std::string> names = {"bs", "pmbw", "beff", "roofline", "ocl"};
  return names;
}

}  // namespace bws::survey
