#include "model/ChannelModel.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

namespace bws::model {

void validate(const ChannelModelParams& p) {
  const bool ok = p.channels >= 1 && p.channel_width_bytes >= 1 && std::isfinite(p.frequency_Hz) &&
                  p.frequency_Hz > 0 && std::isfinite(p.latency_seconds) && p.latency_seconds >= 0 &&
                  std::isfinite(p.sequential_factor) && p.sequential_factor > 0;
  if (!ok)
    throw std::invalid_argument(
        "channel model: need channels >= 1, channel_width_bytes >= 1, frequency_Hz > 0, "
        "latency_seconds >= 0, sequential_factor > 0");
}

std::uint64_t channel_cycles(const ChannelModelParams& p, std::uint64_t message_bytes) {
  validate(p);
  // Bytes all channels of one kernel move per clock (c*w); integer ceil
  // written so that L near 2^64 cannot overflow.
  const std::uint64_t bytes_per_cycle = std::uint64_t{p.channels} * p.channel_width_bytes;
  return message_bytes / bytes_per_cycle + (message_bytes % bytes_per_cycle != 0 ? 1 : 0);
}

double channel_time_per_exchange_seconds(const ChannelModelParams& p, std::uint64_t message_bytes) {
  const double cycles = static_cast<double>(channel_cycles(p, message_bytes));
  return p.sequential_factor * (cycles / p.frequency_Hz + p.latency_seconds);
}

double channel_bandwidth_Bps(const ChannelModelParams& p, std::uint64_t message_bytes) {
  // 2L: L bytes out to one neighbour and L bytes in from the other.
  return 2.0 * static_cast<double>(message_bytes) / channel_time_per_exchange_seconds(p, message_bytes);
}

double channel_one_way_bandwidth_Bps(const ChannelModelParams& p, std::uint64_t message_bytes) {
  return static_cast<double>(message_bytes) / channel_time_per_exchange_seconds(p, message_bytes);
}

namespace {
template <class PerSize>
double mean_over_sizes(std::span<const std::uint64_t> sizes_bytes, PerSize per_size) {
  if (sizes_bytes.empty()) throw std::invalid_argument("channel model: b_eff over an empty size list");
  double sum = 0;
  for (std::uint64_t L : sizes_bytes) sum += per_size(L);
  return sum / static_cast<double>(sizes_bytes.size());
}
}  // namespace

double channel_model_beff_Bps(const ChannelModelParams& p, std::span<const std::uint64_t> sizes_bytes) {
  return mean_over_sizes(sizes_bytes, [&](std::uint64_t L) { return channel_bandwidth_Bps(p, L); });
}

double channel_model_one_way_beff_Bps(const ChannelModelParams& p, std::span<const std::uint64_t> sizes_bytes) {
  return mean_over_sizes(sizes_bytes, [&](std::uint64_t L) { return channel_one_way_bandwidth_Bps(p, L); });
}

double channel_model_beff_pairs_Bps(const ChannelModelParams& p, std::span<const std::uint64_t> sizes_bytes,
                                    std::uint64_t pairs) {
  return static_cast<double>(pairs) * channel_model_beff_Bps(p, sizes_bytes);
}

FitQuality channel_model_quality(const ChannelModelParams& p, std::span<const std::uint64_t> sizes_bytes,
                                 std::span<const double> measured_seconds_per_exchange) {
  if (sizes_bytes.size() != measured_seconds_per_exchange.size())
    return withheld_fit("sizes and measured times differ in number");
  std::vector<double> model_seconds, relative;
  for (std::size_t i = 0; i < sizes_bytes.size(); ++i) {
    model_seconds.push_back(channel_time_per_exchange_seconds(p, sizes_bytes[i]));
    relative.push_back(measured_seconds_per_exchange[i] / model_seconds.back() - 1.0);
  }
  return verdict_of(relative_r_squared(measured_seconds_per_exchange, model_seconds),
                    max_abs_relative_residual(relative), p.latency_seconds < 0, sizes_bytes.size());
}

}  // namespace bws::model
