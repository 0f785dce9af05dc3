#include "roofline/RooflineCatalogEntry.hpp"

#include "roofline/RooflineBenchmark.hpp"
#include "roofline/RooflineTables.hpp"

namespace bws::roofline {

CatalogEntry catalog_entry() {
  return {
      .name = "roofline",
      .make_benchmark = make_roofline_benchmark,
      .make_report = make_roofline_report,
      .report_tables = {kNodesPath},
  };
}

}  // namespace bws::roofline
