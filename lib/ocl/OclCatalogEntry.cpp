#include "ocl/OclCatalogEntry.hpp"

#include "bs/BsResults.hpp"
#include "ocl/OclBenchmark.hpp"
#include "ocl/OclStreamResults.hpp"
#include "stream/StreamCatalogEntry.hpp"

namespace bws::ocl {

CatalogEntry catalog_entry() {
  return {
      .name = "ocl",
      .in_default_set = false,  // needs an OpenCL device
      .make_benchmark = make_ocl_benchmark,
      .make_report = make_ocl_report,
      .report_tables = {kStreamNodesPath, bs::kFitsPath},
      // A device metric: cohorts add the device's name (two GPU models are two cohorts).
      .node_metrics = {{.name = "ocl.triad", .table = kStreamNodesPath, .column = "bandwidth", .unit = "B/s",
                        .where = {{"kernel", "Triad"}}, .group_by = {"type"}, .cohort_column = "device",
                        .group_values = {stream::type_names()}}},
      .companions = {{"beff", {{"beff.path", "device"}}, wants_device_beff}},
  };
}

}  // namespace bws::ocl
