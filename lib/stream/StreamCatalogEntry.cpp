#include "stream/StreamCatalogEntry.hpp"

#include "stream/StreamBabelStream.hpp"
#include "stream/StreamBenchmark.hpp"
#include "stream/StreamTables.hpp"
#include "stream/StreamTypes.hpp"

namespace bws::stream {

std::vector<std::string> type_names() {
  return {std::string(type_name(StreamType::Double)), std::string(type_name(StreamType::Float))};
}

namespace {

// Triad per node on the CPU: stream.triad[double], stream.triad[float].
NodeMetric cpu_triad_metric() {
  return {.name = "stream.triad", .table = kNodesPath, .column = "bandwidth", .unit = "B/s",
          .where = {{"kernel", "Triad"}, {"backend", kBackendCpu}}, .group_by = {"type"},
          .group_values = {type_names()}, .headline = "Triad"};
}

// Triad per node on a device backend, named after it ("ocl.triad"): a new
// backend brings its metric with it. Cohorts add the device's name (two
// GPU models are two cohorts).
NodeMetric device_triad_metric(const std::string& backend) {
  return {.name = backend + ".triad", .table = kNodesPath, .column = "bandwidth", .unit = "B/s",
          .where = {{"kernel", "Triad"}, {"backend", backend}}, .group_by = {"type"},
          .cohort_column = "device", .group_values = {type_names()}};
}

}  // namespace

CatalogEntry catalog_entry(StreamBackends backends) {
  std::vector<NodeMetric> metrics = {cpu_triad_metric()};
  for (const auto& [name, backend] : backends)
    if (name != kBackendCpu) metrics.push_back(device_triad_metric(name));
  return {
      .name = "stream",
      .in_default_set = true,
      .make_benchmark = [backends] { return make_stream_benchmark(backends); },
      .make_report = make_stream_report,
      .report_tables = {kNodesPath},
      .node_metrics = std::move(metrics),
      .export_views = {{kBabelStreamPath, {kNodesPath, kResultsPath}, babelstream_table, true},
                       {kBabelStreamRanksPath, {kResultsPath}, babelstream_ranks_table, true}},
  };
}

}  // namespace bws::stream
