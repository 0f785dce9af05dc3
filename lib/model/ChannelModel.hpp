#pragma once
// The channel model of HPCC_FPGA's b_eff (its "Performance Model"): one
// kernel pair drives c external channels of w bytes each at clock f, and
// every message exchange pays a channel latency lambda. One exchange of an
// L-byte message takes
//     t(L) = s * (ceil(L / (c*w)) / f + lambda)            [seconds]
// and moves L bytes in each direction, so the pair's bandwidth is
//     b(L) = 2L / t(L)                                      [bytes/second]
// (HPCC_FPGA's "2 * L * i / t"). s = 1 is HPCC_FPGA's first model; s = 2 is its
// corrected one, where send and receive loops run one after the other.
// Pure functions: no MPI, no I/O.
#include <cstdint>
#include <span>

#include "model/FitQuality.hpp"

namespace bws::model {

struct ChannelModelParams {
  std::uint32_t channels = 0;             // c: external channels one kernel drives
  std::uint32_t channel_width_bytes = 0;  // w: bytes one channel moves per clock
  double frequency_Hz = 0;                // f: channel clock
  double latency_seconds = 0;             // lambda: paid once per exchange
  double sequential_factor = 1;           // s: 2 when send and receive serialise
};

// BittWare 520N (Stratix 10) from the BSP guide, as HPCC_FPGA's model uses it: 4
// channels split between the two kernels (c = 2), 256 bit = 32 B wide,
// 156.25 MHz, 520 ns. So c*w = 64 B per clock.
inline constexpr ChannelModelParams kBittware520N{2, 32, 156.25e6, 520e-9, 1};
// The same card as the synthesized bitstream behaves: send then receive, s = 2.
inline constexpr ChannelModelParams kBittware520NMeasured{2, 32, 156.25e6, 520e-9, 2};

// Throws std::invalid_argument unless c >= 1, w >= 1, f > 0, lambda >= 0 and
// s > 0 (all finite). Every function below calls it.
void validate(const ChannelModelParams& params);

// ceil(L / (c*w)): clock cycles the channels need for one L-byte message.
std::uint64_t channel_cycles(const ChannelModelParams& params, std::uint64_t message_bytes);

// t(L): seconds one exchange of an L-byte message takes.
double channel_time_per_exchange_seconds(const ChannelModelParams& params, std::uint64_t message_bytes);

// b(L) = 2L / t(L): bytes per second of one kernel pair, both directions.
double channel_bandwidth_Bps(const ChannelModelParams& params, std::uint64_t message_bytes);
// L / t(L): one direction only (HPCC_FPGA's reduced formula prints this form).
double channel_one_way_bandwidth_Bps(const ChannelModelParams& params, std::uint64_t message_bytes);

// Model b_eff of one pair: the plain mean of b(L) over the sizes, as HPCC_FPGA's model
// and b_eff average measured b(L). Throws std::invalid_argument on no sizes.
double channel_model_beff_Bps(const ChannelModelParams& params, std::span<const std::uint64_t> sizes_bytes);
// The same with L / t(L).
double channel_model_one_way_beff_Bps(const ChannelModelParams& params,
                                      std::span<const std::uint64_t> sizes_bytes);

// n pairs have their own channels, so the model scales linearly:
// b_eff,n = n * b_eff (seed: "b_eff,n = n * sum_L b_L / 21").
double channel_model_beff_pairs_Bps(const ChannelModelParams& params, std::span<const std::uint64_t> sizes_bytes,
                                    std::uint64_t pairs);

// How well the model describes measured exchange times t(L) of one pair
// (its parameters are given, not fitted: the gate of FitQuality.hpp judges
// whether its curve is the data's): R^2 with relative weights of the model's
// t(L) against the measured, the largest |measured/model - 1|, lambda's sign
// (never negative once validated) and the sizes. Withheld when the lists
// differ in length or a time is not positive.
FitQuality channel_model_quality(const ChannelModelParams& params, std::span<const std::uint64_t> sizes_bytes,
                                 std::span<const double> measured_seconds_per_exchange);

}  // namespace bws::model
