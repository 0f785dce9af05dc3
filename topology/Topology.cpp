// Loading a topology (this machine, a synthetic description, an XML export),
// choosing the rank's cpuset, and keeping two copies: the whole machine for
// the XML export and a copy restricted to the cpuset for plans and binding.
#include "topology/Topology.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <utility>

#include "core/Errors.hpp"
#include "topology/HwlocHandles.hpp"
#include "topology/TopologyScan.hpp"

namespace bws::topo {
namespace {

TopologyHandle init_topology() {
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) {
    throw RuntimeFailure(std::string("hwloc_topology_init failed: ") + std::strerror(errno));
  }
  return TopologyHandle(raw);
}

void load_or_throw(hwloc_topology_t topology, const std::string& what) {
  if (hwloc_topology_load(topology) != 0) {
    throw UsageError("cannot load the " + what + ": " + std::strerror(errno));
  }
}

// hwloc_bitmap_list_sscanf accepts trailing garbage ("0-3x" reads as 0-3), so
// the characters are checked first: a typo must not silently pin elsewhere.
Bitmap parse_cpuset(const std::string& text) {
  const bool well_formed = std::all_of(text.begin(), text.end(), [](unsigned char c) {
    return std::isdigit(c) || c == ',' || c == '-' || std::isspace(c);
  });
  Bitmap cpuset = make_bitmap();
  if (!well_formed || hwloc_bitmap_list_sscanf(cpuset.get(), text.c_str()) != 0) {
    throw UsageError("cpuset '" + text + "' is not a CPU list; expected e.g. '0-7,12'");
  }
  return cpuset;
}

// The requested cpuset (all PUs when empty) within what the topology allows.
Bitmap choose_rank_cpuset(hwloc_topology_t topology, const std::string& requested) {
  hwloc_const_cpuset_t allowed = hwloc_topology_get_allowed_cpuset(topology);
  if (requested.empty()) return copy_bitmap(allowed);
  Bitmap cpuset = parse_cpuset(requested);
  hwloc_bitmap_and(cpuset.get(), cpuset.get(), allowed);
  if (hwloc_bitmap_iszero(cpuset.get())) {
    throw UsageError("cpuset '" + requested + "' contains no PU of the machine (its PUs: " +
                     to_list_string(allowed) + ")");
  }
  return cpuset;
}

TopologyHandle restrict_copy(hwloc_topology_t full, hwloc_const_cpuset_t rank_cpuset) {
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_dup(&raw, full) != 0) {
    throw RuntimeFailure(std::string("hwloc_topology_dup failed: ") + std::strerror(errno));
  }
  TopologyHandle restricted(raw);
  // REMOVE_CPULESS: the NUMA nodes and caches of other ranks' cores go too,
  // so hwloc_distrib and the NUMA lookups see only this rank's share.
  if (hwloc_topology_restrict(restricted.get(), rank_cpuset, HWLOC_RESTRICT_FLAG_REMOVE_CPULESS) != 0) {
    throw RuntimeFailure("hwloc_topology_restrict to cpuset " + to_list_string(rank_cpuset) +
                         " failed: " + std::strerror(errno));
  }
  return restricted;
}

int numa_node_count(hwloc_topology_t topology) {
  return std::max(1, hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_NUMANODE));
}

// hwloc sums the NUMA nodes' memory from /sys/devices/system/node/node*/
// meminfo. On some virtual machines memory is added outside any node's count
// (hot-plugged or ballooned): the VM this was written on reports 5 GB in its
// one NUMA node while MemTotal is 24 GB. Sizes such as "arrays up to 40% of
// the node's memory" would then be a fifth of what the user expects, so on
// the real machine its memory is the larger of hwloc's and the kernel's
// figure. A rank that spans every NUMA node has all of it locally; a rank on
// some nodes keeps hwloc's per-node figures (the kernel has no per-node
// figure that hwloc did not already read).
void correct_memory_of_this_machine(hwloc_topology_t full, TopologyInfo& info) {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_bytes = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page_bytes > 0) {
    const auto kernel_bytes = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_bytes);
    info.node_memory_bytes = std::max(info.node_memory_bytes, kernel_bytes);
  }
  if (info.numa_nodes >= numa_node_count(full)) {
    info.local_memory_bytes = std::max(info.local_memory_bytes, info.node_memory_bytes);
  }
}

}  // namespace

Topology Topology::discover() {
  TopologyHandle full = init_topology();
  if (hwloc_topology_load(full.get()) != 0) {
    throw RuntimeFailure(std::string("hwloc cannot read this machine's topology: ") + std::strerror(errno));
  }
  // The binding mpirun or Slurm gave the process, within what the cgroup
  // allows; where binding cannot be queried, all allowed PUs.
  hwloc_const_cpuset_t allowed = hwloc_topology_get_allowed_cpuset(full.get());
  Bitmap cpuset = make_bitmap();
  if (hwloc_get_cpubind(full.get(), cpuset.get(), HWLOC_CPUBIND_PROCESS) != 0) {
    hwloc_bitmap_copy(cpuset.get(), allowed);
  }
  hwloc_bitmap_and(cpuset.get(), cpuset.get(), allowed);
  if (hwloc_bitmap_iszero(cpuset.get())) {
    throw RuntimeFailure("this process is bound to no PU that hwloc reports as allowed (allowed: " +
                         to_list_string(allowed) + ")");
  }

  Topology topology;
  topology.info_ = scan_topology(full.get(), cpuset.get());
  // False only when HWLOC_XMLFILE or HWLOC_SYNTHETIC redirected discovery:
  // then binding would be a no-op and the kernel's memory figure unrelated.
  topology.this_system_ = hwloc_topology_is_thissystem(full.get()) != 0;
  if (topology.this_system_) correct_memory_of_this_machine(full.get(), topology.info_);
  topology.restricted_ = restrict_copy(full.get(), cpuset.get()).release();
  topology.full_ = full.release();
  return topology;
}

Topology Topology::synthetic(const std::string& description, const std::string& cpuset) {
  TopologyHandle full = init_topology();
  if (hwloc_topology_set_synthetic(full.get(), description.c_str()) != 0) {
    throw UsageError("synthetic topology '" + description + "' is not valid hwloc syntax "
                     "(e.g. 'pack:2 numa:2 core:4 pu:2')");
  }
  load_or_throw(full.get(), "synthetic topology '" + description + "'");
  return described(full.release(), cpuset);
}

Topology Topology::from_xml(const std::string& xml, const std::string& cpuset) {
  TopologyHandle full = init_topology();
  // The length passed includes the terminating NUL, as export_xml's does.
  if (hwloc_topology_set_xmlbuffer(full.get(), xml.c_str(), static_cast<int>(xml.size() + 1)) != 0) {
    throw UsageError("the hwloc XML topology cannot be read");
  }
  load_or_throw(full.get(), "hwloc XML topology");
  return described(full.release(), cpuset);
}

// A synthetic or XML machine, loaded: the rank's view is the cpuset given.
Topology Topology::described(hwloc_topology_t loaded, const std::string& cpuset) {
  TopologyHandle full(loaded);
  Bitmap rank_cpuset = choose_rank_cpuset(full.get(), cpuset);
  Topology topology;
  topology.info_ = scan_topology(full.get(), rank_cpuset.get());
  topology.restricted_ = restrict_copy(full.get(), rank_cpuset.get()).release();
  topology.full_ = full.release();
  return topology;
}

Topology::Topology(Topology&& other) noexcept
    : full_(std::exchange(other.full_, nullptr)),
      restricted_(std::exchange(other.restricted_, nullptr)),
      info_(std::move(other.info_)),
      this_system_(other.this_system_) {}

Topology& Topology::operator=(Topology&& other) noexcept {
  if (this != &other) {
    if (restricted_ != nullptr) hwloc_topology_destroy(restricted_);
    if (full_ != nullptr) hwloc_topology_destroy(full_);
    full_ = std::exchange(other.full_, nullptr);
    restricted_ = std::exchange(other.restricted_, nullptr);
    info_ = std::move(other.info_);
    this_system_ = other.this_system_;
  }
  return *this;
}

Topology::~Topology() {
  if (restricted_ != nullptr) hwloc_topology_destroy(restricted_);
  if (full_ != nullptr) hwloc_topology_destroy(full_);
}

std::string Topology::export_xml() const {
  if (full_ == nullptr) return {};  // a moved-from Topology
  char* buffer = nullptr;
  int length = 0;
  if (hwloc_topology_export_xmlbuffer(full_, &buffer, &length, 0) != 0 || buffer == nullptr) {
    throw RuntimeFailure("hwloc cannot export the topology as XML");
  }
  // length counts the terminating NUL.
  std::string xml(buffer, length > 0 ? static_cast<std::size_t>(length - 1) : 0);
  hwloc_free_xmlbuffer(full_, buffer);
  return xml;
}

}  // namespace bws::topo
