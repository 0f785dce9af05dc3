#include "beff/BeffEstimate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/Sizes.hpp"

namespace bws::beff {
namespace {

constexpr double kCalibrationMargin = 1.2;  // BeffRingRun.cpp: samples aim 20% above min-time
constexpr double kMaxGrowth = 100;          // BeffRingRun.cpp: per calibration step
constexpr double kCalibrationShare = 1.1;   // the last calibration run and the shorter ones before it
constexpr double kUntimedExchanges = 3;     // first contact, warm-up, the check after the samples
constexpr double kReductionsPerSize = 3;    // times (max, sum) and payload to rank 0

// "; probed sends of 1.00 MiB x 2: 0.05 GB/s", or "" before the probe.
std::string probed_text(const BeffParams& p) {
  if (!(p.probed_send_Bps > 0)) return "";
  return "; probed sends of " + format_bytes(static_cast<double>(p.max_message_bytes())) +
         " x 2: " + format_rate(p.probed_send_Bps);
}

}  // namespace

TimeEstimate estimate_beff(const BeffParams& p, const MachineSpeed& s) {
  const int ranks = std::max(1, p.layout.size);
  const int random = ranks > 1 ? p.random_rings : 0;
  const double rings = 1 + random + (ranks >= 3 ? 1 : 0);
  const double methods = static_cast<double>(p.methods.size());
  // A loaded machine stretches every run of exchanges alike (the probe's mean run over its fastest).
  const double stretch = std::max(1.0, s.exchange_stretch);
  double per_ring = 0;
  for (std::uint64_t L : p.sizes_bytes) {
    const double bytes = static_cast<double>(L);
    // Sends of 2L at memory speed, stretched by the load; and at the rate
    // the ring's probe measured, which was timed under that load already
    // (stretched again, a loaded machine counted twice: 22 min for a
    // 2-rank --quick plan beside a CI run).
    const double exchange = s.rank_exchange_seconds + 2 * bytes / s.thread_memory_Bps;
    const double probed = p.probed_send_Bps > 0 ? s.rank_exchange_seconds + 2 * bytes / p.probed_send_Bps : 0;
    const double target = kCalibrationMargin * p.min_time_seconds;
    const double sample = std::max(std::max(target, exchange) * stretch, probed);
    const double steps = 1 + std::ceil(std::log(std::max(1.0, target / exchange)) / std::log(kMaxGrowth));
    const double calibration = kCalibrationShare * sample + steps * 2 * s.rank_barrier_seconds;
    const double stamping = 4 * bytes / s.thread_memory_Bps;
    per_ring += methods * (calibration + p.reps * (sample + s.rank_barrier_seconds + stamping) +
                           kUntimedExchanges * std::max(exchange * stretch, probed)) +
                kReductionsPerSize * s.rank_barrier_seconds;
  }
  const double touch = 4 * static_cast<double>(p.max_message_bytes()) / s.first_touch_Bps;
  TimeEstimate e;
  e.seconds = rings * per_ring + touch;
  char terms[400];
  std::snprintf(terms, sizeof terms,
                "%g rings x %zu sizes x %zu methods x (calibration + %d reps of >= %g s), %s per ring; probed "
                "8-byte exchange %.3g us, runs of them %.2fx their fastest%s",
                rings, p.sizes_bytes.size(), p.methods.size(), p.reps, p.min_time_seconds,
                duration_text(per_ring).c_str(), s.rank_exchange_seconds * 1e6, stretch, probed_text(p).c_str());
  e.terms = terms;
  return e;
}

}  // namespace bws::beff
