#include "links/LinksCatalogEntry.hpp"

#include "links/LinksBenchmark.hpp"
#include "links/LinksTables.hpp"

namespace bws::links {

CatalogEntry catalog_entry() {
  return {
      .name = "links",
      .in_default_set = false,  // N-1 steps: minutes at scale, asked for by name
      .make_collective = make_links_benchmark,
      .make_report = make_links_report,
      .report_tables = {kNodesPath},
  };
}

}  // namespace bws::links
