#include "roofline/RooflinePeakChecks.hpp"

#include <cmath>

#include "core/ResultColumns.hpp"

namespace bws::roofline {
namespace {

void add_one(Table& checks, const std::string& subject, const char* gemm_name, const char* peak_name,
             double gemm_flop_per_s, double fma_flop_per_s) {
  if (!std::isfinite(fma_flop_per_s) || !(fma_flop_per_s > 0) || std::isnan(gemm_flop_per_s)) return;
  const double limit = (1.0 + kPeakTolerance) * fma_flop_per_s;
  const bool passed = gemm_flop_per_s <= limit;  // +inf fails
  std::string what = subject + " " + gemm_name;
  what += passed ? std::string(" within the ") + peak_name
                 : std::string(" above the ") + peak_name + ": a ceiling or a timing is wrong";
  add_ceiling_check(checks, "roofline.peak", what, "model", gemm_flop_per_s, fma_flop_per_s, limit, "FLOP/s");
}

}  // namespace

void add_peak_checks(Table& checks, const std::string& subject, const Ceilings& c) {
  add_one(checks, subject, "DGEMM", "FMA peak DP", c.gemm_double_flop_per_s, c.fma_double_flop_per_s);
  add_one(checks, subject, "SGEMM", "FMA peak SP", c.gemm_float_flop_per_s, c.fma_float_flop_per_s);
}

}  // namespace bws::roofline
