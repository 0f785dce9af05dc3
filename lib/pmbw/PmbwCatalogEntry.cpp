#include "pmbw/PmbwCatalogEntry.hpp"

#include "pmbw/PmbwBenchmark.hpp"
#include "pmbw/PmbwResults.hpp"

namespace bws::pmbw {

CatalogEntry catalog_entry() {
  return {
      .name = "pmbw",
      .in_default_set = false,  // hours at the default sizes
      .make_benchmark = make_pmbw_benchmark,
      .make_report = make_pmbw_report,
      .report_tables = {kNodesPath},
      .make_exporter = make_pmbw_exporter,
      .node_metrics = {{.name = "pmbw.scan_ram", .table = kNodesPath, .column = "scan_ram_Bps", .unit = "B/s"},
                       {.name = "pmbw.perm_ram_latency", .table = kNodesPath, .column = "perm_ram_access_seconds",
                        .unit = "s", .per_host = HostAggregate::Mean, .higher_is_better = false}},
  };
}

}  // namespace bws::pmbw
