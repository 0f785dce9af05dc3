#include "ocl/OclRateCeiling.hpp"

#include <algorithm>

namespace bws::ocl {

double device_rate_ceiling_Bps(const OclDeviceInfo& d) {
  if (d.compute_units <= 0 || d.max_clock_mhz <= 0) return kAbsurdBps;
  const double line = d.cache_line_bytes > 0 ? static_cast<double>(d.cache_line_bytes) : kDefaultLineBytes;
  const double ceiling = d.compute_units * (d.max_clock_mhz * 1e6) * line * kLinesPerCycle;
  return std::min(ceiling, kAbsurdBps);
}

}  // namespace bws::ocl
