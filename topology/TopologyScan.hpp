#pragma once
// Reads a loaded hwloc topology into a TopologyInfo, counting only what
// intersects the rank's cpuset. hwloc's own figures are used as they are;
// corrections that apply to the real machine only are made by the caller.
#include <hwloc.h>

#include "topology/Topology.hpp"

namespace bws::topo {

// `rank_cpuset` must be non-empty and within the topology's allowed cpuset.
TopologyInfo scan_topology(hwloc_topology_t topology, hwloc_const_cpuset_t rank_cpuset);

// The objects that count as cores: Core, or PU where hwloc knows no cores
// (some VMs and synthetic descriptions such as "pack:2 pu:4").
hwloc_obj_type_t core_type(hwloc_topology_t topology);

}  // namespace bws::topo
