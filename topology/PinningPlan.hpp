#pragma once
// Where each thread of a rank runs. compact: threads fill cores in logical
// order (one NUMA domain before the next); spread: threads are spread evenly
// over packages, then NUMA nodes, then cores (hwloc_distrib); none: threads
// are not bound (they may run on any PU of the rank).
#include <string>
#include <string_view>
#include <vector>

#include "topology/Topology.hpp"

namespace bws::topo {

enum class BindPolicy { Compact, Spread, None };

// "compact", "spread", "none"; throws bws::UsageError naming --bind otherwise.
BindPolicy parse_bind_policy(std::string_view text);
std::string to_string(BindPolicy policy);

struct ThreadSlot {
  int thread = 0;
  int core_logical_index = -1;  // -1 with BindPolicy::None
  int pu_os_index = -1;         // the PU the thread is bound to; -1: unbound
  int numa_os_index = -1;       // the NUMA node whose memory is local to it
};

// One slot per thread, each thread on its own core. Throws bws::UsageError
// naming --threads when threads < 1 or threads > the rank's cores.
std::vector<ThreadSlot> make_pinning_plan(const Topology& topology, int threads, BindPolicy policy);

}  // namespace bws::topo
