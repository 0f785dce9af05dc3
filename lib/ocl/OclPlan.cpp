#include "ocl/OclPlan.hpp"

#include <algorithm>

#include "core/Errors.hpp"
#include "core/Sizes.hpp"

namespace bws::ocl {
namespace {
// A device that reports no global memory cache: size the BS sweep as if it
// had this much (the fit then starts here).
constexpr std::uint64_t kFallbackCacheBytes = std::uint64_t{4} << 20;
}  // namespace

std::uint64_t largest_vector_entries(const bs::BsParams& p) {
  std::uint64_t most = 0;
  for (const auto& points : p.vector_points)
    if (!points.empty()) most = std::max(most, points.back().entries);
  return most;
}

bs::BsParams plan_bs_on_device(const bs::BsOptions& o, const OclDeviceInfo& device, int ranks_on_device, bool quick) {
  if (!device.fp64)
    throw UsageError(o.flag(&bs::BsOptions::backends) + " ocl: bs needs double precision (cl_khr_fp64), which " +
                     device.label() + " lacks; allowed: cpu");
  bs::BsTarget target;
  target.llc_bytes = device.global_cache_bytes > 0 ? device.global_cache_bytes : kFallbackCacheBytes;
  target.memory_bytes = device.global_memory_bytes;
  target.threads = 1;
  target.ranks_sharing = ranks_on_device;
  target.quick = quick;
  target.memory_name = "device (" + device.label() + ")";
  bs::BsParams p = bs::plan_bs_for(o, target);
  std::uint64_t largest_bytes = largest_vector_entries(p) * sizeof(double);
  for (const bs::BsDegreeSweep& s : p.mesh_sweeps)
    for (const bs::BsMeshPoint& m : s.points) largest_bytes = std::max(largest_bytes, m.local_nodes * sizeof(double));
  if (device.max_allocation_bytes > 0 && largest_bytes > device.max_allocation_bytes)
    throw UsageError(o.flag(&bs::BsOptions::max_bytes) + " " + format_bytes(static_cast<double>(p.max_bytes)) +
                     ": one array of " + format_bytes(static_cast<double>(largest_bytes)) +
                     " exceeds the largest buffer of " + device.label() + " (" +
                     format_bytes(static_cast<double>(device.max_allocation_bytes)) +
                     "); allowed: a smaller " + o.flag(&bs::BsOptions::max_bytes));
  return p;
}

}  // namespace bws::ocl
