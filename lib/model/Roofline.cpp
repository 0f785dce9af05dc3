#include "model/Roofline.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace bws::model {
namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
bool positive(double x) { return std::isfinite(x) && x > 0; }
}  // namespace

double arithmetic_intensity(const KernelCounts& c) {
  const double flops = c.adds + c.muls;
  const double bytes = (c.loads + c.stores) * c.word_bytes;  // words moved x bytes per word
  if (!positive(bytes) || !std::isfinite(flops) || flops < 0) return kNaN;
  return flops / bytes;
}

double imbalance_factor(double adds, double muls) {
  const double larger = std::max(adds, muls);
  if (!positive(larger) || adds < 0 || muls < 0 || !std::isfinite(adds + muls)) return kNaN;
  return (adds + muls) / (2 * larger);
}

double machine_balance(double peak_flops, double bandwidth_Bps) {
  if (!positive(peak_flops) || !positive(bandwidth_Bps)) return kNaN;
  return peak_flops / bandwidth_Bps;
}

double attainable_flops(double ai, double peak_flops, double bandwidth_Bps) {
  if (!positive(ai) || !positive(peak_flops) || !positive(bandwidth_Bps)) return kNaN;
  return std::min(peak_flops, ai * bandwidth_Bps);
}

RooflineBound roofline_bound(double ai, double imbalance, double peak_flops, double bandwidth_Bps) {
  RooflineBound b;
  b.balance = machine_balance(peak_flops, bandwidth_Bps);
  b.memory_bound = ai < b.balance;
  b.attainable = attainable_flops(ai, peak_flops, bandwidth_Bps);
  b.attainable_imbalanced = b.attainable * imbalance;
  return b;
}

}  // namespace bws::model
