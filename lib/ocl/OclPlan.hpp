#pragma once
// BS1-BS7 planned on an OpenCL device: lib/bs's plan with the device's
// global memory cache and memory as the target. Every bad value is a
// UsageError of one line naming the option.
#include <cstdint>

#include "bs/BsPlan.hpp"
#include "core/Config.hpp"
#include "ocl/OclDeviceInfo.hpp"

namespace bws::ocl {

// The BS sweep on a device: lib/bs's plan, with the device's global memory
// cache as the "LLC" ('auto' sizes and the fit's first size scale with it)
// and its memory shared by the ranks that use it. UsageError when a
// vector of the largest size exceeds the device's largest buffer or the
// device has no fp64.
bs::BsParams plan_bs_on_device(const bs::BsOptions& options, const OclDeviceInfo& device, int ranks_on_device,
                               bool quick);
// Entries of the largest BS1-BS5 array of the plan.
std::uint64_t largest_vector_entries(const bs::BsParams& params);

}  // namespace bws::ocl
