#pragma once
// The switch-uplink part of the link diagnosis (model/LinkVerdicts.hpp
// states the rule): per ordered pair of leaves the block median, judged
// against all blocks, and the low blocks named as a leaf's uplink or as the
// path between two leaves. Memory: S x S blocks plus, per leaf pair, the
// values of the leaf's hosts (N x S in all).
#include <string>
#include <vector>

#include "model/FlagRule.hpp"
#include "model/LinkVerdicts.hpp"

namespace bws::model {

struct UplinkJudgement {
  std::vector<LinkVerdict> verdicts;
  std::vector<std::vector<double>> blocks;   // S x S block medians; NaN where no host measured
  std::vector<std::vector<bool>> explained;  // S x S: the block lies on an uplink verdict
  std::vector<bool> leaf_blamed;             // per leaf: named by some uplink verdict
};

// "42 %": a fraction as a whole percentage, as the verdict texts write it.
std::string verdict_percent(double fraction);

// Hosts with excluded_hosts[i] do not count in the blocks. Without a
// topology, or with fewer than 2 leaves, no verdicts (blocks still sized S).
UplinkJudgement judge_uplinks(const LinkMapSummary& map, const std::vector<bool>& excluded_hosts, const FlagRule& rule);

}  // namespace bws::model
