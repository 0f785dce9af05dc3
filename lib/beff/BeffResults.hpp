#pragma once
// From measured samples to b(L), b_eff, the per-rank figure, the 8-byte
// latency, the Hockney fit and the scaling efficiency (Rabenseifner's
// b_eff as HPCC_FPGA models it; docs/design-notes.md "b_eff"). Pure functions on BeffMeasurement data, run on rank 0.
//
// Byte terms: in one exchange every rank sends L bytes to each of its two
// neighbours, 2L per rank, so one sample of looplength exchanges on a ring of
// n ranks moves n * 2L * looplength bytes, and
//     b(L) = n * 2L * looplength / t_max       [B/s, all ranks together]
// with t_max the slowest rank's time of the sample. Per ring and size the
// best sample (highest b) over repetitions and methods counts;
//     b_eff = sum_L b(L) / (number of sizes)   (a plain mean, the "/ 21")
//     per-rank b_eff = b_eff / n.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "beff/BeffMeasurement.hpp"
#include "core/ResultColumns.hpp"
#include "model/HockneyFit.hpp"

namespace bws::beff {

inline constexpr std::uint64_t kLatencyMessageBytes = 8;

// n * 2L * looplength: bytes all ranks send in one sample.
std::uint64_t sample_bytes(int ranks, std::uint64_t message_bytes, std::uint64_t looplength);
// sample_bytes / t_max.
double sample_bandwidth_Bps(int ranks, std::uint64_t message_bytes, std::uint64_t looplength, double t_max_seconds);

// The best sample of one ring and size.
struct SizeResult {
  std::uint64_t message_bytes = 0;
  std::uint64_t looplength = 0;
  ExchangeMethod best_method = ExchangeMethod::Sendrecv;
  int best_repetition = 0;
  double t_best_seconds = 0;      // t_max of the best sample (looplength exchanges)
  double t_exchange_seconds = 0;  // t_best / looplength: one exchange with both neighbours
  double b_Bps = 0;               // aggregate b(L)
  double b_per_rank_Bps = 0;      // b(L) / n
  double model_b_Bps = std::numeric_limits<double>::quiet_NaN();  // Hockney's aggregate b(L)
  double residual = std::numeric_limits<double>::quiet_NaN();     // b / model_b - 1
  bool valid = false;             // every method's payload checked out
};

// Best over repetitions and methods whose payload checked out; when none
// did, best over all, and the result is invalid. Throws
// std::invalid_argument for a size without samples or a ring of < 1 rank.
SizeResult best_of_size(const SizeMeasurement& size, int ranks);

struct RingResult {
  int ring_index = 0;
  RingKind kind = RingKind::Natural;
  int ranks = 0;
  std::vector<SizeResult> sizes;
  double b_eff_Bps = 0;
  double b_eff_per_rank_Bps = 0;
  double latency_8B_seconds = std::numeric_limits<double>::quiet_NaN();  // NaN when 8 B is not measured
  model::HockneyFit hockney;  // relative weighting: every size counts alike
  double hockney_b_eff_Bps = std::numeric_limits<double>::quiet_NaN();
  bool valid = false;  // every size valid
};

// Plain mean of b(L) over the sizes; NaN for none.
double beff_mean_Bps(const std::vector<SizeResult>& sizes);
// t_exchange of the 8-byte size, NaN when it was not measured.
double latency_8B_seconds(const std::vector<SizeResult>& sizes);

// Everything above for one ring, and the Hockney fit over (L, t_exchange)
// with its predicted aggregate b(L) = n * 2L / t(L) per size and b_eff.
RingResult ring_result(const RingMeasurement& measurement);

// The linear-scaling check: E(n) = b_eff(natural ring) /
// (n * reference per rank), where the reference per rank is b_eff / 2 of
// the 2-rank reference ring. With n <= 2 there is nothing to scale: the
// natural ring is its own reference (its per-rank b_eff), so E = 1 and the
// check passes. On oversubscribed nodes (more ranks than processors) ranks
// time-share cores and E(n) measures the scheduler: the row is then kind
// "warning" (recorded, not enforced) with the reason in its subject.
struct ScalingResult {
  double reference_per_rank_Bps = std::numeric_limits<double>::quiet_NaN();
  double efficiency = std::numeric_limits<double>::quiet_NaN();
  double min_efficiency = 0;
  bool reference_is_natural_ring = false;  // n <= 2
  bool enforced = true;                    // false on oversubscribed nodes
  CheckRow check;
};
// reference: the 2-rank ring's result, or nullptr when n <= 2.
// reference_description: which ranks it had, for the check's subject.
// oversubscribed: why the check is not enforced ("4 ranks on 2 processors"), or "".
ScalingResult scaling_result(const RingResult& natural, const RingResult* reference, double min_efficiency,
                             const std::string& reference_description, const std::string& oversubscribed = {});

// One rank's own b_eff on a ring (/beff/ranks): the mean over the sizes of
// 2L * looplength / its own fastest sample. The ranks of a ring wait for
// their neighbours, so a slow rank lowers its neighbours' figures too; the
// lowest figures point at the slow part of the ring. NaN for no sizes.
double own_beff_Bps(const std::vector<SizeMeasurement>& sizes);

// E of any ring against the reference per rank (random rings too).
double ring_efficiency(const RingResult& ring, double reference_per_rank_Bps);

}  // namespace bws::beff
