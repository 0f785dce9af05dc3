#pragma once
// The link map's latency verdicts: a host (or a leaf's uplink) whose pairs'
// 8-byte latency is well above the others'. From each host's median latency
// (LinkRowSummary::latency_s, /links/nodes' latency_s: the median over the
// pairs the host started of half a ping-pong's round trip). A round trip
// crosses both ends' links, so that row holds every pair the host is part
// of; the column holds the same pairs timed from the other end. A delay on
// a host's link raises all its pairs and its median; it raises one pair of
// every other host's N-1, which leaves their medians where they were.
//   links.node_latency: a host's median above factor x the median of its
//     cohort peers AND at least floor above it: the factor scales with the
//     fabric (3 x 2 us on InfiniBand as 3 x 30 us on TCP), the floor keeps
//     scheduling noise out (a rank that shares a core waits for a
//     timeslice, up to milliseconds, on any fabric). Needs 3 peers per
//     host (N >= 4) and a cohort of kMinCohortForDeficitRule hosts, as the
//     bandwidth node verdicts. Not given to a host with a links.node_out / links.node_in
//     verdict (a slow link queues the ping-pongs behind its traffic, and
//     the host is named already), nor to a host of a leaf a links.uplink
//     verdict names (a congested uplink delays every pair across it).
//   links.uplink_latency: with a switch tree, a leaf of 2 or more hosts,
//     every one of them high, is one delayed uplink, not as many delayed
//     hosts: a delay on the uplink raises every pair across it, so the
//     hosts of the smaller side have most of their pairs delayed and the
//     others few. One verdict, subject the uplink "leaf->parent", instead
//     of the leaf's node verdicts.
// What the per-host medians cannot show: a delayed uplink between two
// halves (every host has half its pairs or more across it, the cohort's
// median rises with them, nothing is named), and a delay on one pair only
// (neither end's median moves; there is no per-pair latency in the tables
// rank 0 keeps). The latency map (/links/latency_s) shows both. Pure.
#include <string>
#include <vector>

#include "model/Cohorts.hpp"
#include "model/LinkVerdicts.hpp"

namespace bws::model {

// A host is named above kLatencyFactor x its cohort peers' median latency
// and at least kLatencyFloorSeconds above it. The floor is set by the test
// machine's noise: on the pretend cluster (2 shared cores, 4 MiB transfers
// of other pairs beside the ping-pongs) clean hosts' medians stood up to
// 0.57 ms above their peers', a host delayed 2 ms each way 2.1-2.9 ms
// (design-notes, "A latency verdict for the link map").
inline constexpr double kLatencyFactor = 3.0;
inline constexpr double kLatencyFloorSeconds = 1e-3;
// Hosts of one leaf, all high, that make a delayed uplink.
inline constexpr std::size_t kMinHostsForLeafLatency = 2;

struct LatencyRule {
  double factor = kLatencyFactor;         // times the cohort peers' median latency (dimensionless)
  double floor_s = kLatencyFloorSeconds;  // and at least this many seconds above it
};

struct LatencyVerdict {
  std::string metric;     // kLinksNodeLatency, kLinksUplinkLatency
  std::string subject;    // a host, or the uplink "leaf->parent" (the leaf where the tree names no parent)
  double measured_s = 0;  // the host's median latency; the median of the leaf's hosts' medians
  double expected_s = 0;  // the cohort peers' median; the median of the leaf's hosts' references
  double limit_s = 0;     // the latency above which it is named: max(factor x expected, expected + floor)
  std::string text;       // one line: "h3: median latency 2.04 ms, 51 x the cohort median 40 us"
};

// "40 us", "2.04 ms": a latency as the verdict texts write it.
std::string latency_text(double seconds);

// Node verdicts in host order, then uplink verdicts in leaf order.
// `bandwidth`: diagnose_links' verdicts for the same map (their node and
// uplink subjects are left out, see above). Hosts missing from `cohorts`
// form one cohort.
std::vector<LatencyVerdict> diagnose_latency(const LinkMapSummary& map, const NodeCohorts& cohorts,
                                             const LatencyRule& rule, const std::vector<LinkVerdict>& bandwidth);

}  // namespace bws::model
