#include "beff/BeffResults.hpp"

#include <cmath>
#include <stdexcept>

#include "model/ScalingEfficiency.hpp"

namespace bws::beff {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

std::uint64_t sample_bytes(int ranks, std::uint64_t message_bytes, std::uint64_t looplength) {
  return static_cast<std::uint64_t>(ranks) * 2 * message_bytes * looplength;
}

double sample_bandwidth_Bps(int ranks, std::uint64_t message_bytes, std::uint64_t looplength, double t_max_seconds) {
  // In double: n * 2L * looplength can pass 2^64 for long loops of large messages.
  return static_cast<double>(ranks) * 2.0 * static_cast<double>(message_bytes) * static_cast<double>(looplength) /
         t_max_seconds;
}

SizeResult best_of_size(const SizeMeasurement& size, int ranks) {
  if (ranks < 1) throw std::invalid_argument("a ring needs at least one rank");
  bool all_valid = true, any_sample = false;
  for (const MethodSamples& m : size.methods) {
    all_valid = all_valid && m.payload.ok();
    any_sample = any_sample || !m.reps.empty();
  }
  if (!any_sample)
    throw std::invalid_argument("no samples for message size " + std::to_string(size.message_bytes));

  SizeResult best;
  best.message_bytes = size.message_bytes;
  best.looplength = size.looplength;
  best.valid = all_valid;
  bool found = false;
  // Valid methods compete; only when no method is valid do all samples.
  bool any_valid_method = false;
  for (const MethodSamples& m : size.methods) any_valid_method = any_valid_method || (m.payload.ok() && !m.reps.empty());
  for (const MethodSamples& m : size.methods) {
    if (any_valid_method && !m.payload.ok()) continue;
    for (std::size_t r = 0; r < m.reps.size(); ++r) {
      const double b = sample_bandwidth_Bps(ranks, size.message_bytes, size.looplength, m.reps[r].t_max_seconds);
      if (found && !(b > best.b_Bps)) continue;
      found = true;
      best.best_method = m.method;
      best.best_repetition = static_cast<int>(r);
      best.t_best_seconds = m.reps[r].t_max_seconds;
      best.b_Bps = b;
    }
  }
  best.t_exchange_seconds = best.t_best_seconds / static_cast<double>(size.looplength);
  best.b_per_rank_Bps = best.b_Bps / ranks;
  return best;
}

double own_beff_Bps(const std::vector<SizeMeasurement>& sizes) {
  if (sizes.empty()) return std::numeric_limits<double>::quiet_NaN();
  double sum = 0;
  for (const SizeMeasurement& s : sizes)
    sum += 2.0 * static_cast<double>(s.message_bytes) * static_cast<double>(s.looplength) / s.own_best_seconds;
  return sum / static_cast<double>(sizes.size());
}

double beff_mean_Bps(const std::vector<SizeResult>& sizes) {
  if (sizes.empty()) return kNaN;
  double sum = 0;
  for (const SizeResult& s : sizes) sum += s.b_Bps;
  return sum / static_cast<double>(sizes.size());
}

// Per message, as HPCC's ring latency: an exchange sends two messages per
// rank (one to each neighbour), so its time is halved.
double latency_8B_seconds(const std::vector<SizeResult>& sizes) {
  for (const SizeResult& s : sizes)
    if (s.message_bytes == kLatencyMessageBytes) return s.t_exchange_seconds / 2;
  return kNaN;
}

RingResult ring_result(const RingMeasurement& measurement) {
  RingResult out;
  out.ring_index = measurement.ring.index;
  out.kind = measurement.ring.kind;
  out.ranks = measurement.ring.ranks();
  out.valid = true;
  std::vector<model::HockneyPoint> points;
  std::vector<std::uint64_t> sizes_bytes;
  for (const SizeMeasurement& m : measurement.sizes) {
    out.sizes.push_back(best_of_size(m, out.ranks));
    const SizeResult& s = out.sizes.back();
    out.valid = out.valid && s.valid;
    points.push_back({static_cast<double>(s.message_bytes), s.t_exchange_seconds});
    sizes_bytes.push_back(s.message_bytes);
  }
  out.b_eff_Bps = beff_mean_Bps(out.sizes);
  out.b_eff_per_rank_Bps = out.b_eff_Bps / out.ranks;
  out.latency_8B_seconds = latency_8B_seconds(out.sizes);

  // The fit is per exchange of one rank (L to each neighbour: bytes factor
  // 2); all n ranks exchange at once, so the aggregate model is n times that.
  out.hockney = model::fit_hockney(points, model::HockneyWeighting::Relative);
  const double aggregate_factor = 2.0 * out.ranks;
  out.hockney_b_eff_Bps = model::hockney_beff_Bps(out.hockney, sizes_bytes, aggregate_factor);
  for (SizeResult& s : out.sizes) {
    s.model_b_Bps = model::hockney_bandwidth_Bps(out.hockney, static_cast<double>(s.message_bytes), aggregate_factor);
    s.residual = out.hockney.valid ? s.b_Bps / s.model_b_Bps - 1.0 : kNaN;
  }
  return out;
}

double ring_efficiency(const RingResult& ring, double reference_per_rank_Bps) {
  return model::scaling_efficiency(ring.b_eff_Bps, static_cast<std::uint64_t>(ring.ranks), reference_per_rank_Bps);
}

ScalingResult scaling_result(const RingResult& natural, const RingResult* reference, double min_efficiency,
                             const std::string& reference_description, const std::string& oversubscribed) {
  ScalingResult out;
  out.min_efficiency = min_efficiency;
  out.reference_is_natural_ring = reference == nullptr;
  out.reference_per_rank_Bps = reference ? reference->b_eff_per_rank_Bps : natural.b_eff_per_rank_Bps;
  out.efficiency = ring_efficiency(natural, out.reference_per_rank_Bps);
  // Its own reference: exactly 1 (the division may land an ulp below, which
  // would fail --beff.min-efficiency 1).
  if (out.reference_is_natural_ring && std::isfinite(out.efficiency)) out.efficiency = 1.0;
  std::string subject = model::scaling_subject("natural ring", static_cast<std::uint64_t>(natural.ranks)) +
                        " vs " + reference_description;
  out.enforced = oversubscribed.empty();
  if (!out.enforced) subject += " (not enforced: oversubscribed, " + oversubscribed + ")";
  out.check = model::linear_scaling_check_row(subject, out.efficiency, min_efficiency);
  if (!out.enforced) out.check.kind = "warning";
  return out;
}

}  // namespace bws::beff
