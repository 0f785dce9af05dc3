#pragma once
// Slurm's tree topology (topology/tree): which leaf switch each host hangs
// from and which switch is each switch's parent, so that a slow block of
// pairs between two leaves can be named as an uplink. Reads both forms
// Slurm writes it in: topology.conf and `scontrol show topology`, one
// switch a line, `SwitchName=s1 Nodes=n[1-4]` or `SwitchName=top
// Switches=s[1-2]`; keys in any order and any case, other keys (Level=,
// LinkSpeed=) ignored, `#` starts a comment. scontrol also lists under an
// upper switch all the hosts below it: a host's leaf is the deepest switch
// that lists it. Pure.
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bws::model {

class SwitchTopology {
 public:
  // `source` names the input in messages ("--links.topology FILE",
  // "scontrol show topology"). UsageError, one line with the source and
  // the line number: a line without SwitchName=, a switch defined twice, a
  // switch under two parents, an unknown switch in Switches=, a cycle, a
  // host under two leaves that are not one above the other, a bad host list.
  static SwitchTopology parse(std::string_view text, const std::string& source);
  // The tree as a result file stores it (/links/switches, the leaf column
  // of /links/hosts): {switch, parent ("" for a top)} in the input's
  // order, and each host's leaf. UsageError naming `source` for a parent or
  // leaf that is not among the switches, a switch twice, or a cycle.
  static SwitchTopology from_parts(const std::vector<std::pair<std::string, std::string>>& switch_parents,
                                   const std::map<std::string, std::string>& leaf_of_host, const std::string& source);

  bool empty() const { return switches_.empty(); }
  // Switches in the order the input defines them.
  const std::vector<std::string>& switches() const { return switches_; }
  // The host's leaf switch; "" for a host the topology does not list.
  std::string leaf_of(const std::string& host) const;
  // The switch's parent; "" for a top switch or an unknown name.
  std::string parent_of(const std::string& name) const;
  // The leaf's link to its parent, "s1->top"; "" for a top switch.
  std::string uplink_of(const std::string& leaf) const;
  // The switches a message from leaf `from` to leaf `to` passes: up to the
  // lowest common ancestor, then down ("s1", "top", "s2"); {from} when the
  // two are one; empty when they share no ancestor or one is unknown.
  std::vector<std::string> path_between(const std::string& from, const std::string& to) const;

 private:
  std::vector<std::string> ancestry(const std::string& name) const;  // name, its parent, ... the top
  std::string switch_in_cycle() const;  // a switch that is its own ancestor; "" in a tree

  std::vector<std::string> switches_;
  std::map<std::string, std::string> parent_;
  std::map<std::string, std::string> host_leaf_;
};

}  // namespace bws::model
