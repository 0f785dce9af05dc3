#include "stream/StreamCatalogEntry.hpp"

#include "stream/StreamBabelStream.hpp"
#include "stream/StreamBenchmark.hpp"
#include "stream/StreamTables.hpp"
#include "stream/StreamTypes.hpp"

namespace bws::stream {

std::vector<std::string> type_names() {
  return {std::string(type_name(StreamType::Double)), std::string(type_name(StreamType::Float))};
}

CatalogEntry catalog_entry() {
  return {
      .name = "stream",
      .in_default_set = true,
      .make_benchmark = make_stream_benchmark,
      .make_report = make_stream_report,
      .report_tables = {kNodesPath},
      .node_metrics = {{.name = "stream.triad", .table = kNodesPath, .column = "bandwidth", .unit = "B/s",
                        .where = {{"kernel", "Triad"}}, .group_by = {"type"}, .group_values = {type_names()}}},
      .export_views = {{"stream/babelstream", {kResultsPath}, babelstream_table}},
  };
}

}  // namespace bws::stream
