#include "beff/BeffCatalogEntry.hpp"

#include "beff/BeffBenchmark.hpp"
#include "beff/BeffTables.hpp"

namespace bws::beff {

CatalogEntry catalog_entry(std::shared_ptr<const DeviceBuffersProvider> device) {
  return {
      .name = "beff",
      .in_default_set = true,
      .make_collective = [device] { return make_beff_benchmark(device); },
      .make_report = make_beff_report,
      .report_tables = {kSizesPath, kSummaryPath},
      .node_metrics = {{.name = "beff.per_rank", .table = kRanksPath, .column = "b_eff_Bps", .unit = "B/s",
                        .per_host = HostAggregate::Mean}},
  };
}

}  // namespace bws::beff
