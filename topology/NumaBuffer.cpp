// Page-aligned, untouched memory. Where the rank sits in one NUMA node of the
// real machine the area is bound to it (so pages cannot land elsewhere even
// when first-touched by an unbound thread); otherwise placement is left to
// first touch by the threads that will use each part.
//
// A synthetic or XML topology gets plain page-aligned memory (hwloc_alloc
// falls back to posix_memalign for a topology that is not this system), so
// code sized against a synthetic machine still runs. The Topology must
// outlive its buffers: they are freed through its hwloc handle.
#include "topology/NumaBuffer.hpp"

#include <hwloc.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "core/Errors.hpp"

namespace bws::topo {
namespace {

// The single NUMA node of the rank, or nullptr when binding does not apply.
hwloc_obj_t node_to_bind(const Topology& topology) {
  const TopologyInfo& info = topology.info();
  if (!topology.is_this_system() || info.numa_list.size() != 1) return nullptr;
  return hwloc_get_numanode_obj_by_os_index(topology.handle(),
                                            static_cast<unsigned>(info.numa_list.front().os_index));
}

}  // namespace

NumaBuffer::NumaBuffer(const Topology& topology, std::size_t bytes)
    : topology_(topology.handle()), bytes_(bytes) {
  if (bytes == 0) return;  // nothing to allocate; data() stays nullptr
  if (hwloc_obj_t node = node_to_bind(topology)) {
    // STRICT: fail rather than silently hand back unbound memory, so that
    // bound_to_node() tells the truth; then fall back to unbound memory
    // (containers often forbid mbind).
    data_ = hwloc_alloc_membind(topology_, bytes, node->nodeset, HWLOC_MEMBIND_BIND,
                                HWLOC_MEMBIND_BYNODESET | HWLOC_MEMBIND_STRICT);
    bound_ = data_ != nullptr;
  }
  if (data_ == nullptr) data_ = hwloc_alloc(topology_, bytes);
  if (data_ == nullptr) {
    const int error = errno;
    throw RuntimeFailure("cannot allocate " + std::to_string(bytes) + " bytes: " + std::strerror(error));
  }
}

NumaBuffer::NumaBuffer(NumaBuffer&& other) noexcept
    : topology_(std::exchange(other.topology_, nullptr)),
      data_(std::exchange(other.data_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)),
      bound_(std::exchange(other.bound_, false)) {}

NumaBuffer& NumaBuffer::operator=(NumaBuffer&& other) noexcept {
  if (this != &other) {
    release();
    topology_ = std::exchange(other.topology_, nullptr);
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
    bound_ = std::exchange(other.bound_, false);
  }
  return *this;
}

NumaBuffer::~NumaBuffer() { release(); }

void NumaBuffer::release() {
  if (data_ != nullptr) hwloc_free(topology_, data_, bytes_);
  data_ = nullptr;
  bytes_ = 0;
  bound_ = false;
}

}  // namespace bws::topo
