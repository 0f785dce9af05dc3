#pragma once
// The ocl benchmark's plan of one rank: which device (OclSelection), what
// runs on it (--ocl.tests: STREAM and/or BS1-BS7) and how (OclStreamParams;
// BsParams from lib/bs's planning against the device's global memory cache
// and memory). Every bad value is a UsageError of one line naming the option.
#include <cstdint>
#include <string>

#include "bs/BsPlan.hpp"
#include "core/Benchmark.hpp"
#include "core/Config.hpp"
#include "ocl/OclDeviceInfo.hpp"
#include "ocl/OclSelection.hpp"
#include "ocl/OclStreamPlan.hpp"

namespace bws::ocl {

struct OclParts {
  bool stream = true;
  bool bs = true;
  bool beff = true;  // b_eff on the device path, after the ocl phase (a registry companion)
};
// A comma list of stream, bs, beff; UsageError naming --ocl.tests otherwise.
OclParts parse_parts(const std::string& text);

// The BS sweep on a device: lib/bs's plan, with the device's global memory
// cache as the "LLC" ('auto' sizes and the fit's first size scale with it)
// and its memory shared by the ranks that use it. UsageError when a
// vector of the largest size exceeds the device's largest buffer or the
// device has no fp64.
bs::BsParams plan_bs_on_device(const Config& config, const OclDeviceInfo& device, int ranks_on_device, bool quick);
// Entries of the largest BS1-BS5 array of the plan.
std::uint64_t largest_vector_entries(const bs::BsParams& params);

struct OclPlan {
  OclChoice choice;
  OclParts parts;
  OclStreamParams stream;
  bs::BsParams bs;
  std::uint64_t host_bytes = 0;  // host copies this rank allocates
};

OclPlan plan_ocl(const Config& config, const NodeContext& node);
std::string describe_ocl(const OclPlan& plan);

}  // namespace bws::ocl
