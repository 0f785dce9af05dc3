// What a rank may use, read from an hwloc topology: every count below is of
// objects that intersect the rank's cpuset, so a rank bound to half a machine
// sees half of it.
#include "topology/TopologyScan.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "topology/HwlocHandles.hpp"

namespace bws::topo {
namespace {

bool intersects_rank(hwloc_obj_t object, hwloc_const_cpuset_t rank_cpuset) {
  return object->cpuset != nullptr && hwloc_bitmap_intersects(object->cpuset, rank_cpuset);
}

int count_intersecting(hwloc_topology_t topology, hwloc_obj_type_t type,
                       hwloc_const_cpuset_t rank_cpuset) {
  int count = 0;
  for (hwloc_obj_t object = hwloc_get_next_obj_by_type(topology, type, nullptr); object != nullptr;
       object = hwloc_get_next_obj_by_type(topology, type, object)) {
    if (intersects_rank(object, rank_cpuset)) ++count;
  }
  return count;
}

// The NUMA node whose memory is local to `object`: of the nodes whose
// locality covers it, the one with the smallest locality (a node attached to
// the object's die before one attached to the whole machine); ties go to the
// first in logical order, which puts DRAM before HBM/MCDRAM nodes of the same
// locality on the machines we know.
int local_numa_os_index(hwloc_topology_t topology, hwloc_obj_t object) {
  hwloc_obj_t best = nullptr;
  int best_weight = 0;
  for (hwloc_obj_t node = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_NUMANODE, nullptr);
       node != nullptr; node = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_NUMANODE, node)) {
    if (node->cpuset == nullptr || !hwloc_bitmap_isincluded(object->cpuset, node->cpuset)) continue;
    const int weight = hwloc_bitmap_weight(node->cpuset);
    if (best == nullptr || weight < best_weight) {
      best = node;
      best_weight = weight;
    }
  }
  return best != nullptr ? static_cast<int>(best->os_index) : -1;
}

int package_logical_index(hwloc_topology_t topology, hwloc_obj_t object) {
  if (hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PACKAGE) <= 0) return 0;  // one package, unnamed
  hwloc_obj_t package = hwloc_get_ancestor_obj_by_type(topology, HWLOC_OBJ_PACKAGE, object);
  return package != nullptr ? static_cast<int>(package->logical_index) : -1;
}

std::vector<Core> scan_cores(hwloc_topology_t topology, hwloc_const_cpuset_t rank_cpuset,
                             bool machine_has_numa) {
  std::vector<Core> cores;
  const hwloc_obj_type_t type = core_type(topology);
  Bitmap allowed = make_bitmap();
  for (hwloc_obj_t object = hwloc_get_next_obj_by_type(topology, type, nullptr); object != nullptr;
       object = hwloc_get_next_obj_by_type(topology, type, object)) {
    if (!intersects_rank(object, rank_cpuset)) continue;
    hwloc_bitmap_and(allowed.get(), object->cpuset, rank_cpuset);
    Core core;
    core.logical_index = static_cast<int>(object->logical_index);
    for (hwloc_obj_t pu = hwloc_get_next_obj_inside_cpuset_by_type(topology, allowed.get(), HWLOC_OBJ_PU, nullptr);
         pu != nullptr;
         pu = hwloc_get_next_obj_inside_cpuset_by_type(topology, allowed.get(), HWLOC_OBJ_PU, pu)) {
      core.pu_os_indices.push_back(static_cast<int>(pu->os_index));
    }
    core.numa_os_index = machine_has_numa ? local_numa_os_index(topology, object) : 0;
    core.package_logical_index = package_logical_index(topology, object);
    cores.push_back(std::move(core));
  }
  return cores;
}

// hwloc 2 always reports at least one NUMA node; if a topology (an old XML
// export) has none, the machine is one node holding all its memory.
std::vector<NumaNode> scan_numa_nodes(hwloc_topology_t topology, hwloc_const_cpuset_t rank_cpuset) {
  std::vector<NumaNode> nodes;
  for (hwloc_obj_t node = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_NUMANODE, nullptr);
       node != nullptr; node = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_NUMANODE, node)) {
    if (intersects_rank(node, rank_cpuset)) {
      nodes.push_back({static_cast<int>(node->os_index), node->attr->numanode.local_memory});
    }
  }
  if (hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_NUMANODE) <= 0) {
    nodes.push_back({0, hwloc_get_root_obj(topology)->total_memory});
  }
  return nodes;
}

// Data and unified caches only (instruction caches are separate hwloc types,
// memory-side caches are not CPU caches): one entry per level, the size of
// the first instance the rank sees (hybrid CPUs have unequal instances).
std::vector<CacheLevel> scan_caches(hwloc_topology_t topology, hwloc_const_cpuset_t rank_cpuset) {
  static constexpr std::array<hwloc_obj_type_t, 5> kDataCacheTypes = {
      HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L5CACHE};
  std::vector<CacheLevel> levels;
  for (hwloc_obj_type_t type : kDataCacheTypes) {
    CacheLevel level;
    for (hwloc_obj_t cache = hwloc_get_next_obj_by_type(topology, type, nullptr); cache != nullptr;
         cache = hwloc_get_next_obj_by_type(topology, type, cache)) {
      if (!intersects_rank(cache, rank_cpuset)) continue;
      if (level.instances == 0) {
        level.level = static_cast<int>(cache->attr->cache.depth);
        level.size_bytes = cache->attr->cache.size;
        level.line_bytes = cache->attr->cache.linesize;
      }
      ++level.instances;
    }
    if (level.instances > 0) levels.push_back(level);
  }
  return levels;  // ascending: the types above are in level order
}

// The sum over the distinct outermost data caches above the rank's cores:
// what the rank's threads can hold in cache together. Walking up from each
// core (rather than taking "all L3s") is right on machines where not every
// core has the same number of cache levels.
std::uint64_t last_level_cache_bytes(hwloc_topology_t topology, hwloc_const_cpuset_t rank_cpuset) {
  std::vector<hwloc_obj_t> outermost;
  const hwloc_obj_type_t type = core_type(topology);
  for (hwloc_obj_t core = hwloc_get_next_obj_by_type(topology, type, nullptr); core != nullptr;
       core = hwloc_get_next_obj_by_type(topology, type, core)) {
    if (!intersects_rank(core, rank_cpuset)) continue;
    hwloc_obj_t last = nullptr;
    for (hwloc_obj_t ancestor = core->parent; ancestor != nullptr; ancestor = ancestor->parent) {
      if (hwloc_obj_type_is_dcache(ancestor->type)) last = ancestor;
    }
    if (last != nullptr && std::find(outermost.begin(), outermost.end(), last) == outermost.end()) {
      outermost.push_back(last);
    }
  }
  std::uint64_t bytes = 0;
  for (hwloc_obj_t cache : outermost) bytes += cache->attr->cache.size;
  return bytes;
}

std::string cpu_model_of(hwloc_topology_t topology) {
  for (hwloc_obj_t o = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_PACKAGE, nullptr); o != nullptr;
       o = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_PACKAGE, o))
    if (const char* model = hwloc_obj_get_info_by_name(o, "CPUModel"); model && *model) return model;
  if (const char* model = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topology), "CPUModel"); model && *model)
    return model;
  return {};
}

// hwloc reports bandwidth attributes in MiB/s.
double hmat_bandwidth_Bps(hwloc_topology_t topology) {
  double total = 0;
  for (hwloc_obj_t node = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_NUMANODE, nullptr); node != nullptr;
       node = hwloc_get_next_obj_by_type(topology, HWLOC_OBJ_NUMANODE, node)) {
    if (node->cpuset == nullptr || hwloc_bitmap_iszero(node->cpuset)) continue;
    hwloc_location initiator{};
    initiator.type = HWLOC_LOCATION_TYPE_CPUSET;
    initiator.location.cpuset = node->cpuset;
    hwloc_uint64_t mib_per_s = 0;
    if (hwloc_memattr_get_value(topology, HWLOC_MEMATTR_ID_BANDWIDTH, node, &initiator, 0, &mib_per_s) != 0) return 0;
    total += static_cast<double>(mib_per_s) * 1024.0 * 1024.0;
  }
  return total;
}

}  // namespace

hwloc_obj_type_t core_type(hwloc_topology_t topology) {
  return hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE) > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
}

TopologyInfo scan_topology(hwloc_topology_t topology, hwloc_const_cpuset_t rank_cpuset) {
  TopologyInfo info;
  info.cpuset = to_list_string(rank_cpuset);
  info.packages = std::max(1, count_intersecting(topology, HWLOC_OBJ_PACKAGE, rank_cpuset));
  info.pus = count_intersecting(topology, HWLOC_OBJ_PU, rank_cpuset);

  info.numa_list = scan_numa_nodes(topology, rank_cpuset);
  info.numa_nodes = static_cast<int>(info.numa_list.size());
  const bool machine_has_numa = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_NUMANODE) > 0;
  info.core_list = scan_cores(topology, rank_cpuset, machine_has_numa);
  info.cores = static_cast<int>(info.core_list.size());

  info.caches = scan_caches(topology, rank_cpuset);
  info.llc_bytes = last_level_cache_bytes(topology, rank_cpuset);
  for (const CacheLevel& level : info.caches) {
    if (level.level == 1) info.l1_bytes = level.size_bytes;
  }

  info.node_memory_bytes = hwloc_get_root_obj(topology)->total_memory;
  info.cpu_model = cpu_model_of(topology);
  info.memory_bandwidth_Bps = hmat_bandwidth_Bps(topology);
  for (const NumaNode& node : info.numa_list) info.local_memory_bytes += node.memory_bytes;
  return info;
}

}  // namespace bws::topo
