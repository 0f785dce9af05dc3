#pragma once
// The per-node reduction of a pairwise link map (send and receive
// bandwidth of every ordered pair). Each node's row is reduced where it
// was measured, to a few numbers and a short list of low peers, so the
// diagnosis (model/LinkVerdicts.hpp) never needs the N x N matrix: at
// 10,000 nodes rank 0 holds N summaries (two medians and at most
// 2 x kMaxLowPeersPerNode low peers each, <= 10 MB) and, with a switch
// tree of S leaves, N x S per-leaf medians (8 MB at S = 100), not the
// 800 MB of one double matrix. Pure.
#include <cmath>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "model/FlagRule.hpp"
#include "model/SwitchTopology.hpp"

namespace bws::model {

// Low peers kept per node and direction, the lowest first. More than this
// many low peers is not a list of bad links: a node or an uplink explains
// them, and those verdicts come from the medians, not from the list.
inline constexpr std::size_t kMaxLowPeersPerNode = 32;

struct LowPeer {
  int peer = -1;   // host index in the matrices' order
  double Bps = 0;  // the measured value (send to, or receive from, the peer)
};

struct LinkRowSummary {
  double out_Bps = std::nan("");  // median send bandwidth to all peers
  double in_Bps = std::nan("");   // median receive bandwidth from all peers; NaN when not measured
  double latency_s = std::nan("");  // median 8-byte latency to all peers (half a ping-pong); NaN when not measured
  std::vector<LowPeer> low_out;   // peers sent to below low_fraction * out_Bps, lowest first
  std::vector<LowPeer> low_in;    // peers received from below low_fraction * in_Bps, lowest first
  std::size_t low_out_count = 0;  // low peers before the cap of kMaxLowPeersPerNode
  std::size_t low_in_count = 0;
};

// Row `self` of the send and receive matrices (send_Bps[j]: self -> j as
// self measured it; recv_Bps[j]: j -> self as self measured it). Self and
// NaN entries are skipped; an empty recv_Bps means receives were not
// measured. low_fraction: a peer below this fraction of the node's own
// median is a candidate for a pair verdict (default: --flags.fraction).
LinkRowSummary summarize_links_row(std::span<const double> send_Bps, std::span<const double> recv_Bps, int self,
                                   double low_fraction = FlagRule{}.fraction);

// The leaf switch of every host of the matrices, as indices.
struct HostLeaves {
  std::vector<std::string> leaves;  // leaf names, in order of first appearance among the hosts
  std::vector<int> leaf_of_host;    // per host: index into leaves; -1 where the topology does not list it
};
HostLeaves host_leaves(const SwitchTopology& topology, const std::vector<std::string>& hosts);

// Row `self` reduced to one value per leaf: the upper median of the send
// bandwidths to the hosts of that leaf (self, NaN and hosts without a leaf
// skipped); NaN for a leaf without a measured peer. A slow uplink slows
// every pair that crosses it; a slow NIC at the far end slows only the
// pairs to that one host. The upper median (of an even count the larger
// middle value) is not lowered while fewer than half the destinations are
// slow: a leaf of two hosts, one with a slow NIC, keeps its full figure,
// where the plain median (the mean of 25 % and 100 %) read as a 62 %
// uplink on the pretend cluster's slow NIC in 10 of 10 runs.
std::vector<double> per_leaf_medians(std::span<const double> send_Bps, int self, std::span<const int> leaf_of_host,
                                     std::size_t leaves);

}  // namespace bws::model
