// Thread placement: which core each thread of a rank runs on.
#include "topology/PinningPlan.hpp"

#include <hwloc.h>

#include <algorithm>
#include <cstdint>

#include "core/Errors.hpp"
#include "topology/TopologyScan.hpp"

namespace bws::topo {
namespace {

void check_thread_count(const TopologyInfo& info, int threads) {
  const std::string allowed = "; allowed: 1.." + std::to_string(info.cores);
  if (threads < 1) {
    throw UsageError("--threads " + std::to_string(threads) + " is below 1" + allowed);
  }
  if (threads > info.cores) {
    throw UsageError("--threads " + std::to_string(threads) + " is above the " +
                     std::to_string(info.cores) + " cores this rank may use (cpuset " + info.cpuset +
                     ")" + allowed);
  }
}

ThreadSlot slot_on_core(int thread, const Core& core) {
  return ThreadSlot{thread, core.logical_index, core.pu_os_indices.front(), core.numa_os_index};
}

int cores_inside(hwloc_topology_t topology, hwloc_obj_t object, hwloc_obj_type_t type) {
  return hwloc_get_nbobjs_inside_cpuset_by_type(topology, object->cpuset, type);
}

// hwloc_distrib's recursive split, but weighted by cores instead of PUs: each
// child of `object` gets a share of `threads` proportional to its cores,
// rounded by cumulative ceilings (so 2 threads over 4 equal children land on
// the 1st and 3rd). A child's share never exceeds its cores, which keeps
// every thread on its own core even when the cpuset gives cores unequal PU
// counts (hwloc_distrib, weighting by PUs, may then put two on one core).
void spread_over(hwloc_topology_t topology, hwloc_obj_t object, hwloc_obj_type_t core_type,
                 int threads, std::vector<hwloc_obj_t>& chosen) {
  if (threads <= 0) return;
  if (object->type == core_type) {
    chosen.push_back(object);  // threads == 1 here
    return;
  }
  std::int64_t total_cores = 0;
  for (unsigned i = 0; i < object->arity; ++i) {
    total_cores += cores_inside(topology, object->children[i], core_type);
  }
  if (total_cores == 0) return;  // cannot happen: threads <= cores below object
  std::int64_t given_cores = 0;
  auto ceil_share = [&](std::int64_t cores) { return (cores * threads + total_cores - 1) / total_cores; };
  for (unsigned i = 0; i < object->arity; ++i) {
    hwloc_obj_t child = object->children[i];
    const int cores = cores_inside(topology, child, core_type);
    const auto share = static_cast<int>(ceil_share(given_cores + cores) - ceil_share(given_cores));
    spread_over(topology, child, core_type, share, chosen);
    given_cores += cores;
  }
}

// Cores of the restricted topology, mapped back to TopologyInfo::core_list
// (whose logical indices are the whole machine's) by their first PU.
std::vector<ThreadSlot> spread_plan(const Topology& topology, int threads) {
  hwloc_topology_t restricted = topology.handle();
  std::vector<hwloc_obj_t> chosen;
  spread_over(restricted, hwloc_get_root_obj(restricted), core_type(restricted), threads, chosen);

  const std::vector<Core>& cores = topology.info().core_list;
  std::vector<ThreadSlot> plan;
  for (hwloc_obj_t object : chosen) {
    const int first_pu = hwloc_bitmap_first(object->cpuset);
    auto core = std::find_if(cores.begin(), cores.end(), [&](const Core& c) {
      return std::find(c.pu_os_indices.begin(), c.pu_os_indices.end(), first_pu) != c.pu_os_indices.end();
    });
    if (core == cores.end()) {
      throw RuntimeFailure("spread plan: PU " + std::to_string(first_pu) + " is in no core of the rank");
    }
    plan.push_back(slot_on_core(static_cast<int>(plan.size()), *core));
  }
  if (static_cast<int>(plan.size()) != threads) {
    throw RuntimeFailure("spread plan placed " + std::to_string(plan.size()) + " of " +
                         std::to_string(threads) + " threads");
  }
  return plan;
}

}  // namespace

BindPolicy parse_bind_policy(std::string_view text) {
  if (text == "compact") return BindPolicy::Compact;
  if (text == "spread") return BindPolicy::Spread;
  if (text == "none") return BindPolicy::None;
  throw UsageError("--bind: unknown policy '" + std::string(text) + "'; allowed: compact, spread, none");
}

std::string to_string(BindPolicy policy) {
  switch (policy) {
    case BindPolicy::Compact: return "compact";
    case BindPolicy::Spread: return "spread";
    case BindPolicy::None: return "none";
  }
  return "unknown";
}

std::vector<ThreadSlot> make_pinning_plan(const Topology& topology, int threads, BindPolicy policy) {
  const TopologyInfo& info = topology.info();
  check_thread_count(info, threads);
  std::vector<ThreadSlot> plan;
  switch (policy) {
    case BindPolicy::Compact:
      for (int thread = 0; thread < threads; ++thread) {
        plan.push_back(slot_on_core(thread, info.core_list[static_cast<std::size_t>(thread)]));
      }
      return plan;
    case BindPolicy::Spread:
      return spread_plan(topology, threads);
    case BindPolicy::None: {
      // Unbound threads may run anywhere in the cpuset; their memory is only
      // known to be local when the rank has a single NUMA node.
      const int numa = info.numa_list.size() == 1 ? info.numa_list.front().os_index : -1;
      for (int thread = 0; thread < threads; ++thread) plan.push_back(ThreadSlot{thread, -1, -1, numa});
      return plan;
    }
  }
  return plan;
}

}  // namespace bws::topo
