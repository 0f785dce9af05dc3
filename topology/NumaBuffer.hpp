#pragma once
// Page-aligned memory local to the rank's NUMA node(s). The pages are not
// touched here: the thread that will stream a part first-touches it (inside a
// Team job), so each part lands on that thread's NUMA node. When the rank's
// cpuset lies in one NUMA node the area is also bound to it.
#include <cstddef>

#include "topology/Topology.hpp"

namespace bws::topo {

class NumaBuffer {
 public:
  NumaBuffer() = default;
  // Throws bws::RuntimeFailure when the memory cannot be had.
  NumaBuffer(const Topology& topology, std::size_t bytes);
  NumaBuffer(NumaBuffer&&) noexcept;
  NumaBuffer& operator=(NumaBuffer&&) noexcept;
  ~NumaBuffer();

  void* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }
  bool bound_to_node() const { return bound_; }

 private:
  void release();
  hwloc_topology_t topology_ = nullptr;
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
  bool bound_ = false;
};

}  // namespace bws::topo
