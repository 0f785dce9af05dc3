#include "ocl/OclPlan.hpp"

#include <algorithm>

#include "core/Errors.hpp"
#include "core/OptionText.hpp"
#include "core/Sizes.hpp"
#include "ocl/OclOptions.hpp"
#include "ocl/OclRuntime.hpp"

namespace bws::ocl {
namespace {
// A device that reports no global memory cache: size the BS sweep as if it
// had this much (the fit then starts here).
constexpr std::uint64_t kFallbackCacheBytes = std::uint64_t{4} << 20;
}  // namespace

OclParts parse_parts(const std::string& text) {
  OclParts parts{false, false, false};
  for (const std::string& item : split_comma_list(text)) {
    const std::string t = lower_text(item);
    if (t == "stream")
      parts.stream = true;
    else if (t == "bs")
      parts.bs = true;
    else if (t == "beff")
      parts.beff = true;
    else
      throw UsageError(option_flag(kPartsOption) + ": unknown part '" + item + "'; allowed: a comma list of stream, "
                       "bs, beff");
  }
  return parts;
}

std::uint64_t largest_vector_entries(const bs::BsParams& p) {
  std::uint64_t most = 0;
  for (const auto& points : p.vector_points)
    if (!points.empty()) most = std::max(most, points.back().entries);
  return most;
}

bs::BsParams plan_bs_on_device(const Config& config, const OclDeviceInfo& device, int ranks_on_device, bool quick) {
  if (!device.fp64)
    throw UsageError(option_flag(kPartsOption) + ": bs needs double precision (cl_khr_fp64), which " + device.label() +
                     " lacks; allowed: stream");
  bs::BsTarget target;
  target.llc_bytes = device.global_cache_bytes > 0 ? device.global_cache_bytes : kFallbackCacheBytes;
  target.memory_bytes = device.global_memory_bytes;
  target.threads = 1;
  target.ranks_sharing = ranks_on_device;
  target.quick = quick;
  target.memory_name = "device (" + device.label() + ")";
  bs::BsParams p = bs::plan_bs_for(config, target);
  std::uint64_t largest_bytes = largest_vector_entries(p) * sizeof(double);
  for (const bs::BsDegreeSweep& s : p.mesh_sweeps)
    for (const bs::BsMeshPoint& m : s.points) largest_bytes = std::max(largest_bytes, m.local_nodes * sizeof(double));
  if (device.max_allocation_bytes > 0 && largest_bytes > device.max_allocation_bytes)
    throw UsageError(option_flag(bs::kMaxBytesOption) + " " + format_bytes(static_cast<double>(p.max_bytes)) +
                     ": one array of " + format_bytes(static_cast<double>(largest_bytes)) +
                     " exceeds the largest buffer of " + device.label() + " (" +
                     format_bytes(static_cast<double>(device.max_allocation_bytes)) +
                     "); allowed: a smaller --bs.max-bytes");
  return p;
}

OclPlan plan_ocl(const Config& config, const NodeContext& node) {
  OclPlan plan;
  plan.parts = parse_parts(option_text(config, kPartsOption, kPartsDefault));
  plan.choice = choose_device(ocl_platforms("--tests ocl"), config, node.local_rank, node.ranks_on_node);
  const OclDeviceInfo& device = plan.choice.device;
  if (plan.parts.stream) {
    plan.stream = plan_ocl_stream(config, device, plan.choice.ranks_on_device, node.quick);
    plan.host_bytes += plan.stream.device_bytes();  // the host copies of A, B, C
  }
  if (plan.parts.bs) {
    plan.bs = plan_bs_on_device(config, device, plan.choice.ranks_on_device, node.quick);
    // host copies of one test's inputs and outputs, and the largest mesh built on the host
    plan.host_bytes = std::max(plan.host_bytes, 8 * largest_vector_entries(plan.bs) * sizeof(double) +
                                                    plan.bs.mesh_buffer_bytes + plan.bs.mesh_host_bytes);
  }
  return plan;
}

std::string describe_ocl(const OclPlan& plan) {
  std::string text = plan.choice.device.label();
  if (plan.choice.candidates > 1)
    text += " (1 of " + std::to_string(plan.choice.candidates) + " devices, by local rank)";
  if (plan.parts.stream) text += "; STREAM " + describe_ocl_stream(plan.stream);
  if (plan.parts.bs) text += "; BS " + bs::describe_bs(plan.bs);
  return text;
}

}  // namespace bws::ocl
