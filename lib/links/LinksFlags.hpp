#pragma once
// The link map's verdicts (model/LinkVerdicts.hpp) as /flags rows, from
// its stored tables only (never the matrices): /links/nodes, /links/hosts,
// /links/low_peers and, with a switch tree, /links/switches and
// /links/leaf_medians. The catalog entry's make_flags, so bwsurvey and
// bwreport judge a link map alike.
#include <vector>

#include "core/CatalogEntry.hpp"
#include "core/Table.hpp"
#include "model/LinkVerdicts.hpp"

namespace bws::links {

// A node of the map as the flags name it: its host, or "host:rRANK" when
// several members share one host (a one-host test run: each rank stands for
// a node). ':' and '>' are never in a Slurm node name.
std::vector<std::string> member_labels(const Table& hosts);

// The tables read back into what diagnose_links needs. `topology` receives
// the tree (map.topology points at it); none when the tables hold no tree.
// UsageError naming the table for a broken tree.
model::LinkMapSummary link_map_from_tables(const std::vector<Table>& kept, model::SwitchTopology& topology);

// One /flags row per verdict: host = the subject ("n17", "a->b",
// "s1->top"), value = measured, median = expected, threshold = fraction x
// expected, reason = the verdict's line, status "not retested". The
// bandwidth verdicts (unit B/s) first, then the latency verdicts
// (model/LatencyVerdicts.hpp, unit s, rule "latency", threshold = the
// latency above which the subject is named).
Table links_flags(const std::vector<Table>& kept, const FlagInputs& inputs);

}  // namespace bws::links
