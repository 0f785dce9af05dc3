// BS1-BS7 (lib/bs): the fit range found from the measured curve: the
// plateau above the caches (BsPlateau.hpp), the fit on it, no number
// without one, and the sweep that reaches far enough to find it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bs/BsBenchmark.hpp"
#include "bs/BsFit.hpp"
#include "bs/BsPlan.hpp"
#include "bs/BsPlateau.hpp"
#include "bs/BsResults.hpp"
#include "TestSupport.hpp"
#include "core/Benchmark.hpp"
#include "core/Config.hpp"
#include "core/ResultColumns.hpp"
#include "topology/Topology.hpp"

namespace bws::bs {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// A series of one repetition per size: t = T0 + B / bandwidth(B).
template <class Bandwidth>
BsSeries series_of(const std::vector<double>& sizes, double T0_seconds, Bandwidth bandwidth) {
  BsSeries s;
  for (double b : sizes) {
    BsPoint p;
    p.point = static_cast<int>(s.points.size());
    p.bytes = static_cast<std::uint64_t>(b);
    p.seconds = {T0_seconds + b / bandwidth(b)};
    p.validation.passed = true;
    s.points.push_back(p);
  }
  return s;
}

std::vector<double> sizes_from(double lo, double hi, int n) {
  std::vector<double> sizes;
  for (int i = 0; i < n; ++i) sizes.push_back(lo * std::pow(hi / lo, static_cast<double>(i) / (n - 1)));
  return sizes;
}

TEST(BsPlateau, VictimCacheCurveFitsTheTrueWmaxNotTheCacheAssistedPoints) {
  // 32 MiB LLC; 3x the memory's bandwidth inside it, the cache's share
  // falling to nothing at 4x the LLC; 40 GB/s beyond; T0 = 3 us; 1 % noise.
  const double llc = 32 * kMiB, W = 40e9, T0 = 3e-6;
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(0.0, 0.01);
  auto bandwidth = [&](double b) {
    const double x = std::log(b / llc) / std::log(4.0), hit = b <= llc ? 1.0 : x >= 1 ? 0.0 : (1 - x) * (1 - x);
    return 1.0 / ((1 - hit) / W + hit / (3 * W)) * (1 + noise(rng));
  };
  const BsSeries s = series_of(sizes_from(36 * kMiB, 512 * kMiB, 10), T0, bandwidth);
  const BsFit fit = fit_series(s, BsFitRange(static_cast<std::uint64_t>(llc), true), T0);
  ASSERT_TRUE(fit.valid) << fit.invalid_reason;
  EXPECT_TRUE(fit.plateau_found);
  EXPECT_GE(fit.first_fitted_bytes, 4 * llc * 0.9);  // the falling points are left out
  EXPECT_NEAR(fit.Wmax_Bps, W, 0.02 * W);
  EXPECT_DOUBLE_EQ(fit.T0_seconds, T0);
  // The old rule (every point above the LLC) is pulled up by the cache.
  EXPECT_GT(fit_series(s, static_cast<std::uint64_t>(llc), T0).Wmax_Bps, 1.05 * W);
}

TEST(BsPlateau, FreeInterceptOnAFlatCurveFindsWmax) {
  const double W = 25e9;
  const BsSeries s = series_of(sizes_from(64 * kMiB, 1024 * kMiB, 6), 2e-6, [&](double) { return W; });
  const BsFit fit = fit_series(s, BsFitRange(32ull << 20, true));
  ASSERT_TRUE(fit.valid) << fit.invalid_reason;
  EXPECT_EQ(fit.points_used, 6);
  EXPECT_NEAR(fit.Wmax_Bps, W, 1e-3 * W);
  EXPECT_NEAR(fit.plateau_bandwidth_Bps, W, 1e-3 * W);
}

TEST(BsPlateau, FasterSmallestSizesOfAFlatRunAreItsEdge) {
  // 45, 43, 41, 40, 40.2, 39.9, 40.1 GB/s: all within 10 % of their median
  // (40.1), but 45 and 43 are more than half of that above it: cache help.
  std::vector<PlateauPoint> points;
  const double Bps[] = {45e9, 43e9, 41e9, 40e9, 40.2e9, 39.9e9, 40.1e9};
  double bytes = 64 * kMiB;
  for (double b : Bps) {
    points.push_back({bytes, bytes / b, 0.02});  // tolerance 10 %
    bytes *= 1.3;
  }
  const Plateau p = find_plateau(points, -1);
  ASSERT_TRUE(p.found);
  EXPECT_NEAR(p.tolerance, 0.10, 1e-12);
  EXPECT_EQ(p.first, 2u);  // 41 GB/s is 2.2 % above the rest's median: kept
  EXPECT_EQ(p.points, 5);
  EXPECT_NEAR(p.bandwidth_Bps, 40.1e9, 1e3);
}

TEST(BsPlateau, NoPlateauGivesNoNumberAndSaysWhy) {
  // Still falling 10 % a step at the largest sizes.
  const BsSeries s = series_of(sizes_from(40 * kMiB, 256 * kMiB, 8), 1e-6,
                               [](double b) { return 50e9 * std::pow(256 * kMiB / b, 0.3); });
  const BsFit fit = fit_series(s, BsFitRange(32ull << 20, true), 1e-6);
  EXPECT_FALSE(fit.valid);
  EXPECT_FALSE(fit.plateau_found);
  EXPECT_NE(fit.invalid_reason.find("no plateau: bandwidth still changing at the largest size 256.00 MiB (1 flat at 3.0 %, 4 needed)"), std::string::npos)
      << fit.invalid_reason;

  Table results = make_bs_results_table(), fits = make_bs_fits_table(), checks = make_checks_table();
  add_bs_series(results, fits, checks, RankIdentity{}, s, BsFitRange(32ull << 20, true), 1e-6);
  ASSERT_EQ(fits.rows(), 1u);
  EXPECT_EQ(fits.get_int(0, "fitted"), 0);
  EXPECT_EQ(fits.get_int(0, "plateau_found"), 0);
  EXPECT_TRUE(std::isnan(fits.get_double(0, "Wmax_Bps")));
  EXPECT_TRUE(std::isnan(fits.get_double(0, "T0_seconds")));
  for (std::size_t r = 0; r < results.rows(); ++r) EXPECT_EQ(results.get_int(r, "fitted"), 0);
  bool warned = false;
  for (std::size_t r = 0; r < checks.rows(); ++r)
    warned = warned || (checks.get_string(r, "check") == "bs.fit" &&
                        checks.get_string(r, "subject").find("no plateau") != std::string::npos);
  EXPECT_TRUE(warned);
}

// The Zen 5 (32 MiB L3, BS1 on 2 threads): 101.6, 70.6, 52.4, 47.4,
// 44.1, 44.1 GB/s from 37.9 MB to 268 MB; STREAM Copy 42.0 GB/s.
const std::vector<double> kZen5Bytes = {37.9e6, 56.1e6, 82.9e6, 122.6e6, 181.3e6, 268e6};
const std::vector<double> kZen5Bps = {101.6e9, 70.6e9, 52.4e9, 47.4e9, 44.1e9, 44.1e9};

BsSeries zen5_series(const std::vector<double>& bytes, const std::vector<double>& Bps) {
  BsSeries s;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    BsPoint p;
    p.bytes = static_cast<std::uint64_t>(bytes[i]);
    p.seconds = {bytes[i] / Bps[i]};
    p.validation.passed = true;
    s.points.push_back(p);
  }
  return s;
}

TEST(BsPlateau, Zen5SweepTo8xTheLlcHasTooFewFlatPoints) {
  // Two flat sizes are no plateau: the old sweep's end cannot say whether
  // 44.1 GB/s is the floor, so no Wmax (the old fit gave 67 GB/s).
  const BsFit fit = fit_series(zen5_series(kZen5Bytes, kZen5Bps), BsFitRange(32ull << 20, true), 0);
  EXPECT_FALSE(fit.valid);
  EXPECT_EQ(fit.plateau_points, 2);
  EXPECT_NE(fit.invalid_reason.find("no plateau"), std::string::npos) << fit.invalid_reason;
}

TEST(BsPlateau, Zen5SweepExtendedTo16xTheLlcFitsThePlateauAt44GBps) {
  // The same sizes, and the extended sweep's two beyond (flat within 0.5 %).
  std::vector<double> bytes = kZen5Bytes, Bps = kZen5Bps;
  bytes.insert(bytes.end(), {380e6, 537e6});
  Bps.insert(Bps.end(), {43.9e9, 44.3e9});
  const BsFit fit = fit_series(zen5_series(bytes, Bps), BsFitRange(32ull << 20, true), 0);
  ASSERT_TRUE(fit.valid) << fit.invalid_reason;
  EXPECT_EQ(fit.plateau_points, 4);  // 181 MB up: 47.4 GB/s is 7.5 % above, beyond the 3 % tolerance
  EXPECT_DOUBLE_EQ(fit.first_fitted_bytes, 181.3e6);
  EXPECT_NEAR(fit.Wmax_Bps, 44.1e9, 0.01 * 44.1e9);
  EXPECT_NEAR(fit.Wmax_Bps / 42.0e9, 1.05, 0.02);  // against STREAM Copy, not 1.6x
}

TEST(BsPlateau, ExplicitFitMinimumIsHonouredWhenTheSweepEndsFlat) {
  // Flat from 128 MiB; the user asks for 64 MiB up: the 64 and 90 MiB points
  // (cache-assisted) are fitted as asked.
  const double W = 30e9;
  std::vector<double> sizes;  // x sqrt(2), whole MiB
  for (double mib : {32, 45, 64, 90, 128, 181, 256, 362, 512, 724, 1024}) sizes.push_back(mib * kMiB);
  auto bandwidth = [&](double b) { return b < 127 * kMiB ? W * 1.2 : W; };
  const BsSeries s = series_of(sizes, 1e-6, bandwidth);
  const BsFit fit = fit_series(s, BsFitRange(64ull << 20), 1e-6);
  ASSERT_TRUE(fit.valid) << fit.invalid_reason;
  EXPECT_EQ(fit.first_fitted_bytes, 64 * kMiB);
  EXPECT_EQ(fit.points_used, 9);  // 64 MiB .. 1 GiB
  EXPECT_GT(fit.Wmax_Bps, 1.01 * W);
  // Auto: the plateau alone.
  const BsFit plateau = fit_series(s, BsFitRange(32ull << 20, true), 1e-6);
  EXPECT_EQ(plateau.points_used, 7);  // 128 MiB .. 1 GiB
  EXPECT_NEAR(plateau.Wmax_Bps, W, 1e-6 * W);
  // The no-plateau check still applies to an explicit minimum.
  const BsSeries falling = series_of(sizes, 1e-6, [&](double b) { return W * std::pow(1024 * kMiB / b, 0.2); });
  EXPECT_FALSE(fit_series(falling, BsFitRange(64ull << 20), 1e-6).valid);
}

TEST(BsPlateau, ASizeSlowedAloneIsLeftOutOfTheFitAndRecorded) {
  // 40 GB/s from 64 MiB to 1 GiB; the fourth size timed while something
  // else took a third of the bandwidth. Its neighbours are flat: interference.
  const double W = 40e9;
  const std::vector<double> sizes = sizes_from(64 * kMiB, 1024 * kMiB, 9);
  const BsSeries s = series_of(sizes, 0, [&](double b) { return b == sizes[3] ? W / 1.5 : W; });
  const BsFit fit = fit_series(s, BsFitRange(32ull << 20, true), 0);
  ASSERT_TRUE(fit.valid) << fit.invalid_reason;
  ASSERT_EQ(fit.interference_bytes.size(), 1u);
  EXPECT_DOUBLE_EQ(fit.interference_bytes[0], static_cast<double>(s.points[3].bytes));
  EXPECT_EQ(fit.plateau_points, 9);
  EXPECT_EQ(fit.points_used, 8);
  EXPECT_NEAR(fit.Wmax_Bps, W, 1e-6 * W);  // with it, a third slower at one size, Wmax would be off

  Table results = make_bs_results_table(), fits = make_bs_fits_table(), checks = make_checks_table();
  add_bs_series(results, fits, checks, RankIdentity{}, s, BsFitRange(32ull << 20, true), 0);
  EXPECT_EQ(fits.get_int(0, "plateau_interference"), 1);
  EXPECT_EQ(fits.get_string(0, "fit_verdict"), "result");
  for (std::size_t r = 0; r < results.rows(); ++r)
    EXPECT_EQ(results.get_int(r, "fitted"), r == 3 ? 0 : 1) << r;
  bool recorded = false;
  for (std::size_t r = 0; r < checks.rows(); ++r)
    recorded = recorded || (checks.get_string(r, "check") == "bs.fit" && checks.get_int(r, "passed") == 1 &&
                            checks.get_string(r, "subject").find("slowed alone") != std::string::npos);
  EXPECT_TRUE(recorded);
}

TEST(BsPlateau, SlowSizesThatAreNotAloneAreNoInterference) {
  const double W = 40e9;
  const std::vector<double> sizes = sizes_from(64 * kMiB, 1024 * kMiB, 9);
  // Two slow sizes side by side: a regime or long interference, not a blip;
  // the run starts after them.
  const BsSeries pair = series_of(sizes, 0, [&](double b) { return b == sizes[3] || b == sizes[4] ? W / 1.5 : W; });
  const BsFit after = fit_series(pair, BsFitRange(32ull << 20, true), 0);
  ASSERT_TRUE(after.valid) << after.invalid_reason;
  EXPECT_TRUE(after.interference_bytes.empty());
  EXPECT_DOUBLE_EQ(after.first_fitted_bytes, static_cast<double>(pair.points[5].bytes));
  // The largest size slow: the bandwidth may still be falling there; no plateau.
  const BsSeries last = series_of(sizes, 0, [&](double b) { return b == sizes.back() ? W / 1.5 : W; });
  const BsFit none = fit_series(last, BsFitRange(32ull << 20, true), 0);
  EXPECT_FALSE(none.valid);
  EXPECT_FALSE(none.plateau_found);
  // A faster size alone is no interference (cache help, a regime): the run starts after it.
  const BsSeries fast = series_of(sizes, 0, [&](double b) { return b == sizes[3] ? W * 1.5 : W; });
  const BsFit past = fit_series(fast, BsFitRange(32ull << 20, true), 0);
  ASSERT_TRUE(past.valid);
  EXPECT_TRUE(past.interference_bytes.empty());
  EXPECT_DOUBLE_EQ(past.first_fitted_bytes, static_cast<double>(fast.points[4].bytes));
}

TEST(BsPlateau, ToleranceIsFiveRepetitionSpreadsWithinThreeToTenPercent) {
  std::vector<PlateauPoint> points(5, PlateauPoint{1e8, 1e-2, 0.0});
  EXPECT_DOUBLE_EQ(plateau_tolerance(points), 0.03);  // one repetition: the floor
  for (PlateauPoint& p : points) p.rep_spread = 0.012;
  points[0].rep_spread = 0.5;  // the median, not one noisy size
  EXPECT_NEAR(plateau_tolerance(points), 0.06, 1e-12);
  for (PlateauPoint& p : points) p.rep_spread = 0.2;
  EXPECT_DOUBLE_EQ(plateau_tolerance(points), 0.10);
}

// ---- the sweep reaches far enough ----

NodeContext node_of(const topo::Topology& t, bool quick) { return NodeContext{t, "node1", 0, 1, 0, 2, quick, MachineSpeed{}, 0}; }

TEST(BsPlateauPlan, AutoSweepGoesTo16xTheLlcWithHalfItsPointsAboveIt) {
  const topo::Topology t = topo::Topology::synthetic(
      "numa:1(memory=24GiB) pack:1 l3:1(size=32MiB) l2:2(size=1MiB) l1d:1(size=32KiB) core:1 pu:1");
  const BsParams p = plan_bs(Config{}, node_of(t, false));
  EXPECT_EQ(p.max_bytes, 16 * 32 * (1ull << 20));
  ASSERT_EQ(p.target_bytes.size(), 24u);
  int above = 0;
  for (std::uint64_t b : p.target_bytes) above += b > p.fit_min_bytes ? 1 : 0;
  EXPECT_EQ(above, 12);  // half of 24
  for (std::size_t i = 1; i < p.target_bytes.size(); ++i) EXPECT_GT(p.target_bytes[i], p.target_bytes[i - 1]);
  const std::string line = describe_bs(p);
  EXPECT_NE(line.find("fit on the plateau (>= 4 flat sizes) looked for in 32.00 MiB .. 512.00 MiB (13 sizes)"), std::string::npos) << line;

  // A sweep that ends below the LLC says there will be no fit.
  const std::string small = describe_bs(plan_bs(test::config_with({{"bs.max-bytes", "16M"}}), node_of(t, false)));
  EXPECT_NE(small.find("no fit: 0 sizes from the LLC (32.00 MiB) to 16.00 MiB, 4 flat ones needed"), std::string::npos)
      << small;

  const BsParams q = plan_bs(Config{}, node_of(t, true));
  above = 0;
  for (std::uint64_t b : q.target_bytes) above += b > q.fit_min_bytes ? 1 : 0;
  EXPECT_EQ(above, 6);  // kPlateauMinPoints + 2 of --quick's 12
}

TEST(BsPlateauPlan, TimeBudgetHalvesTheReachWhenNothingElseIsFree) {
  // Repetitions, points and degrees given: only the reach (16x -> 8x the
  // LLC) may go, and it does when 16x is over the budget and 8x is not.
  const topo::Topology t = topo::Topology::synthetic(
      "numa:1(memory=24GiB) pack:1 l3:1(size=32MiB) l2:2(size=1MiB) l1d:1(size=32KiB) core:1 pu:1");
  const auto bs = make_bs_benchmark();
  auto node_with = [&](double budget_seconds) { return NodeContext{t, "node1", 0, 1, 0, 2, false, MachineSpeed{}, budget_seconds}; };
  const Config given = test::config_with({{"bs.tests", "bs1"}, {"bs.reps", "20"}, {"bs.points", "24"}, {"bs.degrees", "1"}});
  Config to_8x = given;
  to_8x.set("bs.max-bytes", "256M");
  const double far = bs->plan(given, node_with(0))->estimate().seconds;
  const double near = bs->plan(to_8x, node_with(0))->estimate().seconds;
  ASSERT_LT(near, 0.8 * far);
  const auto fitted = bs->plan(given, node_with(0.5 * (near + far)));
  EXPECT_NE(fitted->describe().find("reach 16x LLC -> 8x LLC"), std::string::npos) << fitted->describe();
  EXPECT_NE(fitted->describe().find(".. 256.00 MiB"), std::string::npos) << fitted->describe();
  EXPECT_LE(fitted->estimate().seconds, 0.5 * (near + far));
}

}  // namespace
}  // namespace bws::bs
