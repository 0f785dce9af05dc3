#include "stream/StreamCatalogEntry.hpp"

#include "stream/StreamBabelStream.hpp"
#include "stream/StreamBenchmark.hpp"
#include "stream/StreamTables.hpp"
#include "stream/StreamTypes.hpp"

namespace bws::stream {

std::vector<std::string> type_names() {
  return {std::string(type_name(StreamType::Double)), std::string(type_name(StreamType::Float))};
}

CatalogEntry catalog_entry(StreamBackends backends) {
  return {
      .name = "stream",
      .in_default_set = true,
      .make_benchmark = [backends] { return make_stream_benchmark(backends); },
      .make_report = make_stream_report,
      .report_tables = {kNodesPath},
      .node_metrics = {{.name = "stream.triad", .table = kNodesPath, .column = "bandwidth", .unit = "B/s",
                        .where = {{"kernel", "Triad"}, {"backend", kBackendCpu}}, .group_by = {"type"},
                        .group_values = {type_names()}},
                       // Device rows: cohorts add the device's name (two GPU models are two cohorts).
                       {.name = "ocl.triad", .table = kNodesPath, .column = "bandwidth", .unit = "B/s",
                        .where = {{"kernel", "Triad"}, {"backend", "ocl"}}, .group_by = {"type"},
                        .cohort_column = "device", .group_values = {type_names()}}},
      .export_views = {{"stream/babelstream", {kResultsPath}, babelstream_table}},
  };
}

}  // namespace bws::stream
