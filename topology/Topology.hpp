#pragma once
// hwloc discovery of what one rank may use: packages, NUMA nodes, cores, PUs,
// caches and memory, restricted to the rank's cpuset (what Slurm, mpirun or
// the caller gave it). The same code reads the real machine, a synthetic
// description ("pack:2 numa:2 core:4 pu:2") or an XML export, so plans can
// be tested on machines we do not have.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct hwloc_topology;
typedef struct hwloc_topology* hwloc_topology_t;

namespace bws::topo {

struct CacheLevel {
  int level = 0;                 // 1, 2, 3, ...
  std::uint64_t size_bytes = 0;  // one instance
  unsigned line_bytes = 0;
  int instances = 0;             // instances that intersect the rank's cpuset
};

struct Core {
  int logical_index = 0;              // hwloc logical index among all cores
  std::vector<int> pu_os_indices;     // allowed PUs of this core, in logical order
  int numa_os_index = -1;             // the NUMA node local to it (-1: none known)
  int package_logical_index = -1;
};

struct NumaNode {
  int os_index = 0;
  std::uint64_t memory_bytes = 0;
};

struct TopologyInfo {
  std::string cpuset;                 // rank's cpuset as a list, "0-3,8"
  int packages = 0;                   // that intersect the cpuset
  int numa_nodes = 0;
  int cores = 0;                      // cores with at least one allowed PU
  int pus = 0;                        // allowed PUs
  std::vector<Core> core_list;        // in logical order
  std::vector<NumaNode> numa_list;    // local to the cpuset
  std::vector<CacheLevel> caches;     // data/unified caches by level, ascending
  std::uint64_t llc_bytes = 0;        // sum of last-level caches that intersect the cpuset
  std::uint64_t l1_bytes = 0;         // one L1d instance (0 if unknown)
  std::uint64_t node_memory_bytes = 0;   // the whole machine's memory
  std::uint64_t local_memory_bytes = 0;  // memory of the NUMA nodes in numa_list
  std::string cpu_model;                 // the first package's CPUModel ("" when hwloc does not say)
  // Sum over the machine's NUMA nodes of hwloc's bandwidth attribute (ACPI
  // HMAT, from each node's local CPUs); 0 where the firmware gives none.
  double memory_bandwidth_Bps = 0;
};

class Topology {
 public:
  // This machine, restricted to the calling process's CPU binding.
  static Topology discover();
  // A synthetic machine, e.g. "pack:2 numa:2(memory=8GB) core:4 pu:2";
  // cpuset: an hwloc list string ("0-7,12") or empty for all PUs.
  static Topology synthetic(const std::string& description, const std::string& cpuset = {});
  // A machine from an hwloc XML export (text, not a file name).
  static Topology from_xml(const std::string& xml, const std::string& cpuset = {});

  Topology(Topology&&) noexcept;
  Topology& operator=(Topology&&) noexcept;
  ~Topology();

  const TopologyInfo& info() const { return info_; }
  bool is_this_system() const { return this_system_; }
  // The whole machine as hwloc XML (unrestricted), for the HDF5 file.
  std::string export_xml() const;
  // The underlying topology, restricted to the cpuset.
  hwloc_topology_t handle() const { return restricted_; }

 private:
  Topology() = default;
  // Takes ownership of a loaded synthetic or XML topology.
  static Topology described(hwloc_topology_t loaded, const std::string& cpuset);
  hwloc_topology_t full_ = nullptr;        // as discovered, for export
  hwloc_topology_t restricted_ = nullptr;  // restricted to the rank's cpuset
  TopologyInfo info_;
  bool this_system_ = false;
};

}  // namespace bws::topo
