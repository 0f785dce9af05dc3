#include "load/LoadCatalogEntry.hpp"

#include "load/LoadBenchmark.hpp"
#include "load/LoadKernels.hpp"
#include "load/LoadTables.hpp"

namespace bws::load {

CatalogEntry catalog_entry() {
  return {
      .name = "load",
      .in_default_set = false,  // an example beside STREAM: run when --tests names it
      .make_benchmark = make_load_benchmark,
      .make_report = make_load_report,
      .report_tables = {kNodesPath},
      // A node whose read-only bandwidth lags its peers' is flagged (/flags).
      .node_metrics = {{.name = "load.bandwidth", .table = kNodesPath, .column = "bandwidth", .unit = "B/s",
                        .group_by = {"kernel"}, .group_values = {kernel_names()}}},
  };
}

}  // namespace bws::load
