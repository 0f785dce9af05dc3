#include "stream/StreamEstimate.hpp"

#include <cstdio>

#include "core/Sizes.hpp"

namespace bws::stream {
namespace {

constexpr double kKernelByteWeights = 2 + 2 + 3 + 3;  // Copy, Scale, Add, Triad (x elements x sizeof)
constexpr double kSetupByteWeights = 5 + 3;           // a=1, b=2, c=0, a=2a (5 passes); validation reads 3
constexpr double kKernels = 4;
constexpr double kThreadSyncsPerKernel = 3;           // Team::run and its two barriers

}  // namespace

TimeEstimate estimate_stream(const StreamCommonParams& c, const std::vector<std::vector<std::uint64_t>>& elements,
                             std::uint64_t allocated_bytes, const MachineSpeed& s) {
  double kernel_bytes = 0, setup_bytes = 0;
  for (const auto& per_type : elements)
    for (std::size_t t = 0; t < per_type.size() && t < c.types.size(); ++t) {
      const double array_bytes = static_cast<double>(per_type[t]) * static_cast<double>(element_bytes(c.types[t]));
      kernel_bytes += c.reps * kKernelByteWeights * array_bytes;
      setup_bytes += kSetupByteWeights * array_bytes;
    }
  const double runs = static_cast<double>(elements.size() * c.types.size());
  const double syncs = runs * c.reps * kKernels * (s.rank_barrier_seconds + kThreadSyncsPerKernel * s.thread_sync_seconds);
  const double touch = static_cast<double>(allocated_bytes) / s.first_touch_Bps;
  TimeEstimate e;
  e.seconds = kernel_bytes / s.memory_Bps + setup_bytes / s.memory_Bps + syncs + touch;
  char terms[256];
  std::snprintf(terms, sizeof terms, "%g runs x %d reps x 4 kernels = %s / %s + setup and validation %s + first touch %s",
                runs, c.reps, format_bytes(kernel_bytes).c_str(), format_rate(s.memory_Bps).c_str(),
                format_bytes(setup_bytes).c_str(), duration_text(touch).c_str());
  e.terms = terms;
  return e;
}

}  // namespace bws::stream
