#include "ocl/OclStreamPlan.hpp"

#include "stream/StreamPlan.hpp"

#include <algorithm>

#include "core/Errors.hpp"
#include "core/OptionText.hpp"
#include "core/Sizes.hpp"
#include "ocl/OclOptions.hpp"

namespace bws::ocl {
namespace {

void check_type(stream::StreamType type, const OclDeviceInfo& device, const std::string& flag) {
  if (type == stream::StreamType::Double && !device.fp64)
    throw UsageError(flag + ": double needs cl_khr_fp64, which " + device.label() +
                     " lacks; allowed: float");
}

std::string shape_text(const OclStreamParams& p) {
  return "replications x vector-count x buffer-size = " + std::to_string(p.replications) + " x " +
         std::to_string(p.vector_count) + " x " + std::to_string(p.buffer_size) + " = " +
         std::to_string(p.length_unit());
}

// The most elements per array the device holds for the ranks sharing it
// (fraction of its memory) with each replication's buffer within the
// largest allocation; 0 when unknown.
std::uint64_t memory_cap(const OclStreamParams& p, const OclDeviceInfo& d, double fraction) {
  const double bytes = static_cast<double>(p.element_bytes());
  std::uint64_t cap = UINT64_MAX;
  if (d.global_memory_bytes > 0)
    cap = static_cast<std::uint64_t>(fraction * static_cast<double>(d.global_memory_bytes) /
                                     (3.0 * bytes * std::max(1, p.ranks_on_device)));
  if (d.max_allocation_bytes > 0)
    cap = std::min(cap, static_cast<std::uint64_t>(p.replications) *
                            (d.max_allocation_bytes / static_cast<std::uint64_t>(p.element_bytes())));
  return cap;
}

}  // namespace

void check_stream_length(std::uint64_t n, const OclStreamParams& p, const std::string& flag) {
  const std::uint64_t unit = p.length_unit();
  if (n > 0 && n % unit == 0) return;
  const std::uint64_t below = n / unit * unit, above = below + unit;
  std::string nearest = below > 0 ? std::to_string(below) + " and " + std::to_string(above) : std::to_string(above);
  throw UsageError(flag + " " + std::to_string(n) + ": not a multiple of " + shape_text(p) +
                   " (the kernels have no bounds check); nearest valid lengths: " + nearest);
}

OclStreamParams plan_ocl_stream(const Config& config, const OclDeviceInfo& device, int ranks_on_device, bool quick) {
  const stream::StreamOptions options = stream::stream_schema().read(config, quick);
  const stream::StreamCommonParams common = stream::plan_stream_common(options);
  return plan_ocl_stream(options, ocl_stream_schema().read(config, quick), device, ranks_on_device, common,
                         common.types.front());
}

OclStreamParams plan_ocl_stream(const stream::StreamOptions& so, const OclStreamShapeOptions& o,
                                const OclDeviceInfo& device, int ranks_on_device,
                                const stream::StreamCommonParams& common, stream::StreamType type) {
  OclStreamParams p;
  p.ranks_on_device = std::max(1, ranks_on_device);
  check_type(type, device, so.flag(&stream::StreamOptions::types));
  p.type = type;
  p.validation = common.validation;  // one rule for every backend
  p.replications = o.replications;
  p.vector_count = o.vector_count;
  if ((p.vector_count & (p.vector_count - 1)) != 0)
    throw UsageError(o.flag(&OclStreamShapeOptions::vector_count) + ": '" + std::to_string(p.vector_count) +
                     "' is not an OpenCL vector width; allowed: 1, 2, 4, 8, 16");
  p.unroll = o.unroll;
  p.single_kernel = o.single_kernel;

  std::uint64_t max_buffer = kMaxBufferSize;
  const std::uint64_t vector_bytes = static_cast<std::uint64_t>(p.vector_count) * p.element_bytes();
  if (p.single_kernel && device.local_memory_bytes > 0)
    max_buffer = std::min(max_buffer, device.local_memory_bytes / vector_bytes);
  if (max_buffer < 1)
    throw UsageError(o.flag(&OclStreamShapeOptions::vector_count) + " " + std::to_string(p.vector_count) + ": one vector of " +
                     std::to_string(vector_bytes) + " B exceeds the local memory of " + device.label());
  p.buffer_size = o.buffer_elements;
  if (p.buffer_size > max_buffer)
    throw UsageError(o.flag(&OclStreamShapeOptions::buffer_elements) + ": '" + std::to_string(p.buffer_size) +
                     "' is out of range; allowed: 1.." + std::to_string(max_buffer) + " (the local buffer of " +
                     std::to_string(vector_bytes) + " B vectors must fit the device's " +
                     format_bytes(static_cast<double>(device.local_memory_bytes)) + " of local memory)");

  const std::string elements_flag = so.flag(&stream::StreamOptions::elements);
  const std::string& elements_text = so.elements.text;
  p.elements_auto = !so.elements.count;
  const std::uint64_t unit = p.length_unit();
  const std::uint64_t auto_cap = memory_cap(p, device, kAutoMemoryFraction);
  if (p.elements_auto) {
    std::uint64_t n = std::max(kAutoMinElements, kAutoCacheMultiple * device.global_cache_bytes / p.element_bytes());
    n = std::min(n, auto_cap) / unit * unit;
    if (n == 0)
      throw UsageError(elements_flag + " auto: 40% of " + device.label() + "'s " +
                       format_bytes(static_cast<double>(device.global_memory_bytes)) + " holds less than one " +
                       shape_text(p) + " elements per array for " + std::to_string(p.ranks_on_device) +
                       " ranks; allowed: a smaller " + o.flag(&OclStreamShapeOptions::buffer_elements) + " or " +
                       o.flag(&OclStreamShapeOptions::replications));
    p.elements = n;
    return p;
  }
  const std::uint64_t n = *so.elements.count;
  const std::uint64_t full_cap = memory_cap(p, device, 1.0);
  const std::string allowed = "; allowed: auto or a multiple of " + std::to_string(unit) + " up to " +
                              std::to_string(full_cap / unit * unit);
  check_stream_length(n, p, elements_flag);
  if (n > full_cap)
    throw UsageError(elements_flag + " " + elements_text + ": 3 arrays of " +
                     format_bytes(static_cast<double>(n * p.element_bytes())) + " for " +
                     std::to_string(p.ranks_on_device) + (p.ranks_on_device == 1 ? " rank" : " ranks") + " exceed " +
                     device.label() + " (" + format_bytes(static_cast<double>(device.global_memory_bytes)) +
                     ", largest buffer " + format_bytes(static_cast<double>(device.max_allocation_bytes)) + ")" +
                     allowed);
  p.elements = n;
  return p;
}

std::string describe_ocl_stream(const OclStreamParams& p) {
  return std::string(stream::type_name(p.type)) + ", " + std::to_string(p.elements) + " elements/array" +
         (p.elements_auto ? " (auto)" : "") + ", " + std::to_string(p.replications) + " replication" +
         (p.replications == 1 ? "" : "s") + " x vector " + std::to_string(p.vector_count) + " x buffer " +
         std::to_string(p.buffer_size) + ", unroll " + std::to_string(p.unroll) + ", " +
         (p.single_kernel ? "combined kernel" : "separate kernels");
}

}  // namespace bws::ocl
