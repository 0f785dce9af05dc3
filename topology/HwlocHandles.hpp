#pragma once
// Owning handles for hwloc bitmaps and topologies, so that every early return
// and exception in the discovery code frees what it allocated.
#include <hwloc.h>

#include <cstdlib>
#include <memory>
#include <new>
#include <string>

namespace bws::topo {

struct BitmapDeleter {
  void operator()(hwloc_bitmap_s* bitmap) const { hwloc_bitmap_free(bitmap); }
};
using Bitmap = std::unique_ptr<hwloc_bitmap_s, BitmapDeleter>;

struct TopologyDeleter {
  void operator()(hwloc_topology* topology) const { hwloc_topology_destroy(topology); }
};
using TopologyHandle = std::unique_ptr<hwloc_topology, TopologyDeleter>;

inline Bitmap make_bitmap() {
  Bitmap bitmap(hwloc_bitmap_alloc());
  if (!bitmap) throw std::bad_alloc();
  return bitmap;
}

inline Bitmap copy_bitmap(hwloc_const_bitmap_t source) {
  Bitmap bitmap(hwloc_bitmap_dup(source));
  if (!bitmap) throw std::bad_alloc();
  return bitmap;
}

// "0-3,8": the list syntax of hwloc, taskset -c and Slurm.
inline std::string to_list_string(hwloc_const_bitmap_t bitmap) {
  char* text = nullptr;
  if (hwloc_bitmap_list_asprintf(&text, bitmap) < 0 || text == nullptr) throw std::bad_alloc();
  std::string result(text);
  std::free(text);
  return result;
}

}  // namespace bws::topo
