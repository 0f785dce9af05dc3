#pragma once
// The paper's model of a streaming kernel, fitted per (rank, test[, degree]):
//     T(B) = T0 + B / Wmax
// T0: the fixed cost of one call (on CPU threads: the fork/join barriers and
// the reduction's combine), Wmax: the asymptotic bandwidth. It is Hockney's
// t = alpha + L/beta, so model/HockneyFit does the least squares, weighted
// Relative (minimise sum ((t - T)/t)^2): the sweep spans decades of bytes,
// and with Absolute weights the largest points alone set the line and T0
// (microseconds next to milliseconds) comes out as noise, often negative;
// relative weights let every size count alike, which is what pins T0.
// Only points of at least --bs.fit-min-bytes are fitted, by default the
// plateau above the rank's last-level cache (BsPlateau.hpp). Chalmers &
// Warburton fit a GPU, whose time per byte hardly changes with size; on a
// CPU it falls 5-10x from L1 to DRAM, and a line through all regimes (the
// issue's "above L1") gave T0 < 0 for every series on the project's machine
// and a Wmax that was no regime's bandwidth. On the plateau the asymptote
// is the memory's, which is what Wmax is for; the cache regime (and the
// fall just above the LLC) stays in /bs/results, reported, not fitted.
// A negative intercept is not physical: the fit is then redone with T0 = 0
// (enforced) and flagged. Fischer-Brown points: B0.8 = 4*T0*Wmax reaches
// 80% of Wmax (B/(T0 + B/W) = 0.8 W), B0.5 = T0*Wmax reaches 50%.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "model/FitQuality.hpp"

namespace bws::bs {

struct BsFitPoint {
  double bytes = 0;
  double seconds = 0;
};

struct BsFit {
  bool valid = false;
  std::string invalid_reason;
  int points_used = 0;
  double first_fitted_bytes = 0;  // smallest fitted size
  double T0_seconds = 0;
  double Wmax_Bps = 0;
  double r_squared = 0;           // relative-weighted, as the fit
  bool T0_negative = false;       // the free fit's intercept was < 0; T0 then forced to 0
  bool T0_measured = false;       // T0 is the measured empty-call time, Wmax fitted with it held
  double T0_unconstrained_seconds = 0;
  std::vector<double> relative_residuals;  // (t - T(B)) / T(B), one per fitted point, input order
  double max_abs_relative_residual = 0;
  // Where the bandwidth stopped changing with size (BsPlateau.hpp). Without
  // a plateau the fit is not made: valid = false, invalid_reason says so.
  bool plateau_found = false;
  int plateau_points = 0;
  std::vector<double> interference_bytes;  // plateau sizes slowed alone by interference, not fitted
  bool fitted_size(double bytes) const;     // valid, from first_fitted_bytes up and not slowed
  double plateau_first_bytes = 0;
  double plateau_bandwidth_Bps = 0;
  double plateau_tolerance = 0;
  double B08_bytes() const { return 4.0 * T0_seconds * Wmax_Bps; }
  double B05_bytes() const { return T0_seconds * Wmax_Bps; }
};

// The fit through the quality gate (model/FitQuality.hpp): an invalid fit
// (no plateau, too few points) is withheld with its reason; else R^2, the
// largest relative residual and the points decide. A measured T0 is not a
// fitted intercept: only a fitted T0 below 0 counts against the fit.
model::FitQuality bs_fit_quality(const BsFit& fit);

// Fits the points (all given points; select them before). Invalid for fewer
// than 3 points, non-positive times, or no growth of time with bytes.
// With T0_measured_seconds >= 0, T0 is held at that value and only Wmax is
// fitted (least squares, same weights); the free fit's intercept is kept in
// T0_unconstrained_seconds either way.
BsFit fit_streaming(std::span<const BsFitPoint> points, double T0_measured_seconds = -1);

// The paper's own fit (Chalmers & Warburton: "a simple least squares linear fit of the
// elapsed time of each trial"), kept beside ours so B0.8 compares with the
// paper's Table 3: every size of the sweep, each timed as streamParanumal
// does (total time of the timed runs / their count = their mean), plain
// unweighted least squares of t against B, intercept free. T0 may come out
// negative (then B0.8 too): reported as fitted, never clamped.
struct BsPaperFit {
  bool valid = false;
  std::string invalid_reason;
  int points_used = 0;
  double T0_seconds = 0;  // intercept
  double Wmax_Bps = 0;    // 1 / slope
  double B08_bytes() const { return 4.0 * T0_seconds * Wmax_Bps; }
};
// Invalid for fewer than 2 distinct sizes, a non-finite or non-positive
// time, or a slope <= 0.
BsPaperFit fit_paper(std::span<const BsFitPoint> points);

// The Fischer-Brown point where B / T(B) = fraction * Wmax: B = T0*Wmax*f/(1-f).
double fischer_brown_bytes(double T0_seconds, double Wmax_Bps, double fraction);

}  // namespace bws::bs
