// Each Team thread binds itself (binding another thread by id is racy and
// not portable) and then asks the kernel where it runs, so the HDF5 file
// records what happened, not what was planned.
#include "topology/ThreadBindingCheck.hpp"

#include <hwloc.h>
#include <sched.h>

#include <cerrno>
#include <cstring>

#include "topology/HwlocHandles.hpp"

namespace bws::topo {
namespace {

std::string thread_name(int thread) { return "thread " + std::to_string(thread); }

}  // namespace

ThreadBinding bind_calling_thread(const Topology& topology, const ThreadSlot& slot, int thread) {
  ThreadBinding binding;
  binding.thread = thread;
  binding.planned_pu = slot.pu_os_index;
  hwloc_topology_t handle = topology.handle();
  const bool bound_by_plan = slot.pu_os_index >= 0;

  std::string failure;
  if (bound_by_plan) {
    Bitmap pu = make_bitmap();
    hwloc_bitmap_only(pu.get(), static_cast<unsigned>(slot.pu_os_index));
    if (hwloc_set_cpubind(handle, pu.get(), HWLOC_CPUBIND_THREAD) != 0) {
      failure = thread_name(thread) + ": binding to PU " + std::to_string(slot.pu_os_index) +
                " failed: " + std::strerror(errno);
    }
  }

  binding.observed_cpu = sched_getcpu();
  if (topology.is_this_system()) {
    Bitmap current = make_bitmap();
    if (hwloc_get_cpubind(handle, current.get(), HWLOC_CPUBIND_THREAD) == 0) {
      binding.bound_cpuset = to_list_string(current.get());
    }
  }

  const std::string observed = std::to_string(binding.observed_cpu);
  if (binding.observed_cpu < 0) {
    binding.warning = thread_name(thread) + ": sched_getcpu failed: " + std::strerror(errno);
  } else if (bound_by_plan) {
    binding.verified = failure.empty() && binding.observed_cpu == slot.pu_os_index;
    if (!failure.empty()) {
      binding.warning = failure;
    } else if (!binding.verified) {
      binding.warning = thread_name(thread) + " planned on PU " + std::to_string(slot.pu_os_index) +
                        " but runs on PU " + observed;
    }
  } else if (topology.is_this_system()) {
    // The restricted topology's cpuset is the rank's cpuset.
    hwloc_const_cpuset_t rank_cpuset = hwloc_topology_get_topology_cpuset(handle);
    binding.verified = hwloc_bitmap_isset(rank_cpuset, static_cast<unsigned>(binding.observed_cpu)) != 0;
    if (!binding.verified) {
      binding.warning = thread_name(thread) + " (unbound) runs on PU " + observed +
                        ", outside the rank's cpuset " + topology.info().cpuset;
    }
  } else {
    // A synthetic or XML topology says nothing about where this process may
    // run: an unbound thread that runs at all is as planned.
    binding.verified = true;
  }
  return binding;
}

}  // namespace bws::topo
