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
      // A node verdict is retested by the whole map again: the node's
      // median send (receive, latency) then, against the row's threshold.
      // Node verdicts exist only with one member per host, so a host's row
      // is its own (Mean only guards a shared host). Pair and uplink
      // verdicts name links, not hosts: they have no retest metric.
      .retest_metrics = {{.name = model::kLinksNodeOut, .table = kNodesPath, .column = "out_Bps", .unit = "B/s",
                          .per_host = HostAggregate::Mean},
                         {.name = model::kLinksNodeIn, .table = kNodesPath, .column = "in_Bps", .unit = "B/s",
                          .per_host = HostAggregate::Mean},
                         {.name = model::kLinksNodeLatency, .table = kNodesPath, .column = "latency_s", .unit = "s",
                          .per_host = HostAggregate::Mean, .higher_is_better = false}},
  };
}

}  // namespace bws::links
