#include "ocl/OclRateCeiling.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/ResultColumns.hpp"

namespace bws::ocl {

double device_rate_ceiling_Bps(const OclDeviceInfo& d) {
  if (d.compute_units <= 0 || d.max_clock_mhz <= 0) return kAbsurdBps;
  const double line = d.cache_line_bytes > 0 ? static_cast<double>(d.cache_line_bytes) : kDefaultLineBytes;
  const double ceiling = d.compute_units * (d.max_clock_mhz * 1e6) * line * kLinesPerCycle;
  return std::min(ceiling, kAbsurdBps);
}

bool apply_bs_rate_ceiling(bs::BsPoint& p, double ceiling_Bps, Table& checks, const std::string& what) {
  double best = 0;
  for (double s : p.seconds) best = best == 0 ? s : std::min(best, s);
  const double rate = best > 0 ? static_cast<double>(p.bytes) / best : INFINITY;
  if (rate <= ceiling_Bps) return true;
  p.validation.passed = false;
  char text[160];
  std::snprintf(text, sizeof text, "rate %.3g B/s above the device's ceiling %.3g B/s", rate, ceiling_Bps);
  p.validation.what = text + (p.validation.what.empty() ? std::string() : "; " + p.validation.what);
  const std::string subject = what + " (" + std::to_string(p.bytes) + " B): above the device's ceiling";
  add_check(checks, {.check = "ocl.rate_ceiling",
                     .subject = subject.substr(0, 160),
                     .kind = "validation",
                     .measured = rate,
                     .expected = ceiling_Bps,
                     .lower = 0,
                     .upper = ceiling_Bps,
                     .unit = "B/s",
                     .passed = false});
  return false;
}

}  // namespace bws::ocl
