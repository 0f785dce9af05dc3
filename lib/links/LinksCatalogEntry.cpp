#include "links/LinksCatalogEntry.hpp"

#include "links/LinksBenchmark.hpp"
#include "links/LinksFlags.hpp"
#include "links/LinksTables.hpp"
#include "model/LinkVerdicts.hpp"

namespace bws::links {

CatalogEntry catalog_entry() {
  return {
      .name = "links",
      .in_default_set = false,  // N-1 or N rounds: minutes at scale, asked for by name
      .make_collective = make_links_benchmark,
      .make_report = make_links_report,
      // Every table the flags read back (links/LinksFlags.hpp).
      .report_tables = {kNodesPath, kHostsPath, kLowPeersPath, kSwitchesPath, kLeafMediansPath},
      .make_flags = links_flags,
      .flag_metrics = {model::kLinksNodeOut, model::kLinksNodeIn, model::kLinksPair, model::kLinksUplink,
                       model::kLinksNodeLatency, model::kLinksUplinkLatency},
  };
}

}  // namespace bws::links
