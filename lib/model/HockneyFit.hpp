#pragma once
// Hockney's model of one message exchange, fitted to measured points:
//     t(L) = alpha + L / beta                [seconds per exchange]
// alpha is the start-up latency (s), beta the asymptotic bandwidth (B/s) of
// the L-byte term. Least squares over (L, t) points; from the fit, the
// predicted bandwidth of an exchange that moves bytes_factor * L bytes
//     b(L) = bytes_factor * L / t(L)         [bytes/second]
// (bytes_factor = 2 for the ring: L to each neighbour, HPCC_FPGA b_eff's "2L") and
// the predicted b_eff = plain mean of b(L) over the sizes, as b_eff averages.
// Pure functions: no MPI, no I/O. A fit that cannot be made is returned
// flagged invalid with a reason, never thrown, so a run still records it.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "model/FitQuality.hpp"

namespace bws::model {

struct HockneyPoint {
  double message_bytes = 0;          // L
  double seconds_per_exchange = 0;   // measured t(L)
};

// Absolute: minimise sum (t - model)^2; the large sizes dominate, so alpha
// is poorly pinned when the sizes span decades. Relative: minimise
// sum ((t - model)/t)^2 (weights 1/t^2), every size counts alike.
enum class HockneyWeighting { Absolute, Relative };

struct HockneyResidual {
  double message_bytes = 0;
  double measured_seconds = 0;
  double model_seconds = 0;
  double residual_seconds = 0;   // measured - model
  double relative_residual = 0;  // (measured - model) / model
};

struct HockneyFit {
  bool valid = false;
  std::string invalid_reason;   // empty when valid
  double alpha_seconds = 0;     // intercept; may come out negative
  double beta_Bps = 0;          // 1 / slope
  double r_squared = 0;         // weighted as the fit was; NaN if all t are equal
  bool alpha_negative = false;  // a valid fit whose intercept is below 0: the
                                // latency term is not physical, treat with care
  HockneyWeighting weighting = HockneyWeighting::Absolute;
  std::vector<HockneyResidual> residuals;  // one per input point, input order
};

// Invalid (with a reason) for: a non-finite point, L < 0, t <= 0, fewer than
// 2 distinct sizes, or a slope <= 0 (time not growing with L: no beta).
HockneyFit fit_hockney(std::span<const HockneyPoint> points,
                       HockneyWeighting weighting = HockneyWeighting::Absolute);

// The fit through the quality gate (FitQuality.hpp): its R^2, the largest
// |relative residual| of t, alpha's sign and its points; an invalid fit is
// withheld with its invalid_reason as the reason.
FitQuality hockney_quality(const HockneyFit& fit);

// t(L) = alpha + L / beta; NaN for an invalid fit.
double hockney_time_seconds(const HockneyFit& fit, double message_bytes);
// bytes_factor * L / t(L); NaN for an invalid fit.
double hockney_bandwidth_Bps(const HockneyFit& fit, double message_bytes, double bytes_factor = 2);
// Mean of hockney_bandwidth_Bps over the sizes; NaN for an invalid fit or no sizes.
double hockney_beff_Bps(const HockneyFit& fit, std::span<const std::uint64_t> sizes_bytes, double bytes_factor = 2);

}  // namespace bws::model
