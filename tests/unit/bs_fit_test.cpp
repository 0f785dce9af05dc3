// BS1-BS7 (lib/bs): the T0/Wmax fit and the paper's least-squares fit.
#include <gtest/gtest.h>

#include "TestSupport.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "bs/BsBenchmark.hpp"
#include "bs/BsFit.hpp"
#include "bs/BsKernels.hpp"
#include "bs/BsMesh.hpp"
#include "bs/BsPlan.hpp"
#include "bs/BsResults.hpp"
#include "bs/BsTeamJobs.hpp"
#include "bs/BsTypes.hpp"
#include "core/Config.hpp"
#include "core/ResultColumns.hpp"
#include "core/RunContext.hpp"
#include "topology/PinningPlan.hpp"
#include "topology/Team.hpp"
#include "topology/Topology.hpp"

namespace bws::bs {
namespace {

// ---- the fit ----

TEST(BsFit, FischerBrownPointOfThePapersV100Bs3Fit) {
  BsFit fit;
  fit.T0_seconds = 7.62e-6;
  fit.Wmax_Bps = 809e9;
  EXPECT_NEAR(fit.B08_bytes(), 24.66e6, 0.005e6);  // 24.7 MB
  EXPECT_NEAR(fit.B08_bytes() / 1e6, 24.7, 0.05);
  EXPECT_DOUBLE_EQ(fit.B08_bytes(), 4 * fit.B05_bytes());
  EXPECT_NEAR(fischer_brown_bytes(7.62e-6, 809e9, 0.8), fit.B08_bytes(), 1e-6 * fit.B08_bytes());
  EXPECT_NEAR(fischer_brown_bytes(7.62e-6, 809e9, 0.5), fit.B05_bytes(), 1e-6 * fit.B05_bytes());
}

TEST(BsFit, RecoversT0AndWmaxFromNoisySyntheticData) {
  const double T0 = 5e-6, W = 20e9;
  std::mt19937_64 rng(42);
  std::normal_distribution<double> noise(0.0, 0.01);  // 1% multiplicative noise
  std::vector<BsFitPoint> points;
  for (int i = 0; i < 24; ++i) {
    const double bytes = 32768.0 * std::pow(2048.0, i / 23.0);
    points.push_back({bytes, (T0 + bytes / W) * (1 + noise(rng))});
  }
  const BsFit fit = fit_streaming(points);
  ASSERT_TRUE(fit.valid) << fit.invalid_reason;
  EXPECT_NEAR(fit.T0_seconds, T0, 0.1 * T0);
  EXPECT_NEAR(fit.Wmax_Bps, W, 0.03 * W);
  EXPECT_GT(fit.r_squared, 0.99);
  EXPECT_FALSE(fit.T0_negative);
  EXPECT_EQ(fit.points_used, 24);
  EXPECT_EQ(fit.relative_residuals.size(), 24u);
  EXPECT_LT(fit.max_abs_relative_residual, 0.05);
  EXPECT_DOUBLE_EQ(fit.B08_bytes(), 4 * fit.T0_seconds * fit.Wmax_Bps);
}

TEST(BsFit, NegativeInterceptIsForcedToZeroAndFlagged) {
  // Time grows faster than linearly at the top: the free line crosses below 0.
  std::vector<BsFitPoint> points;
  for (double b : {1e5, 1e6, 1e7, 1e8}) points.push_back({b, b / 10e9 * (b >= 1e7 ? 1.0 : 0.5)});
  const BsFit fit = fit_streaming(points);
  ASSERT_TRUE(fit.valid) << fit.invalid_reason;
  EXPECT_TRUE(fit.T0_negative);
  EXPECT_LT(fit.T0_unconstrained_seconds, 0);
  EXPECT_EQ(fit.T0_seconds, 0);
  EXPECT_GT(fit.Wmax_Bps, 0);
  EXPECT_EQ(fit.B08_bytes(), 0);
}

TEST(BsFit, TooFewPointsIsInvalidNotThrown) {
  const std::vector<BsFitPoint> points = {{1e6, 1e-4}, {2e6, 2e-4}};
  const BsFit fit = fit_streaming(points);
  EXPECT_FALSE(fit.valid);
  EXPECT_FALSE(fit.invalid_reason.empty());
}

TEST(BsFit, MeasuredT0IsHeldAndWmaxFittedWithIt) {
  // Noiseless T(B) = 2 us + B / 30 GB/s on DRAM-sized points.
  std::vector<BsFitPoint> points;
  for (double b : {64e6, 128e6, 256e6, 512e6}) points.push_back({b, 2e-6 + b / 30e9});
  const BsFit held = fit_streaming(points, 2e-6);
  ASSERT_TRUE(held.valid);
  EXPECT_TRUE(held.T0_measured);
  EXPECT_DOUBLE_EQ(held.T0_seconds, 2e-6);
  EXPECT_NEAR(held.Wmax_Bps, 30e9, 30e9 * 1e-9);
  EXPECT_NEAR(held.r_squared, 1.0, 1e-12);
  EXPECT_NEAR(held.B08_bytes(), 4 * 2e-6 * 30e9, 1.0);  // 240 kB
  // A wrong T0 (10x) still gives nearly the same Wmax here: milliseconds
  // dwarf it, which is why a free intercept cannot find it.
  EXPECT_NEAR(fit_streaming(points, 20e-6).Wmax_Bps, 30e9, 30e9 * 0.01);
}

TEST(BsFit, SeriesFitsOnlyPointsFromTheFitMinimumUp) {
  BsSeries s;
  for (int i = 0; i < 6; ++i) {
    BsPoint p;
    p.bytes = 8192ull << i;  // 8 KiB .. 256 KiB
    p.seconds = {1e-6 + static_cast<double>(p.bytes) / 1e10};
    s.points.push_back(p);
  }
  // With the measured T0 (1 us) the bandwidth is flat: a plateau, so fitted.
  const BsFit fit = fit_series(s, 65536, 1e-6);
  EXPECT_EQ(fit.points_used, 3);  // 64, 128, 256 KiB: the minimum itself counts
  EXPECT_EQ(fit.first_fitted_bytes, 65536);
  EXPECT_NEAR(fit.Wmax_Bps, 1e10, 1e6);
  EXPECT_NEAR(fit.T0_seconds, 1e-6, 1e-9);
}

// The paper's fit: plain least squares of t on B over every size, free intercept.
TEST(BsPaperFit, ExactLineGivesItsInterceptAndSlope) {
  // t = 1 us + B / 5e8 B/s: 1000 B -> 3 us, 2000 B -> 5 us, 4000 B -> 9 us.
  const std::vector<BsFitPoint> points = {{1000, 3e-6}, {2000, 5e-6}, {4000, 9e-6}};
  const BsPaperFit fit = fit_paper(points);
  ASSERT_TRUE(fit.valid) << fit.invalid_reason;
  EXPECT_EQ(fit.points_used, 3);
  EXPECT_NEAR(fit.T0_seconds, 1e-6, 1e-15);
  EXPECT_NEAR(fit.Wmax_Bps, 5e8, 5e8 * 1e-9);
  EXPECT_NEAR(fit.B08_bytes(), 2000.0, 1e-6);  // 4 * 1e-6 s * 5e8 B/s
}

TEST(BsPaperFit, ScatteredPointsGiveTheLeastSquaresLine) {
  // B = 1000, 2000, 3000; t = 1, 3, 2 us. Means: B 2000, t 2 us.
  // Sbb = 1000^2 + 0 + 1000^2 = 2e6; Sbt = (-1000)(-1e-6) + 0 + 1000*0 = 1e-3.
  // slope = 1e-3 / 2e6 = 5e-10 s/B -> Wmax 2e9 B/s; T0 = 2e-6 - 5e-10*2000 = 1e-6 s.
  const std::vector<BsFitPoint> points = {{1000, 1e-6}, {2000, 3e-6}, {3000, 2e-6}};
  const BsPaperFit fit = fit_paper(points);
  ASSERT_TRUE(fit.valid);
  EXPECT_NEAR(fit.Wmax_Bps, 2e9, 2e9 * 1e-9);
  EXPECT_NEAR(fit.T0_seconds, 1e-6, 1e-15);
  EXPECT_NEAR(fit.B08_bytes(), 8000.0, 1e-6);  // 4 * 1e-6 * 2e9
}

TEST(BsPaperFit, NegativeInterceptIsReportedNotClamped) {
  // t = -2 us + 3e-9 s/B * B: 1000 -> 1 us, 2000 -> 4 us, 3000 -> 7 us.
  const std::vector<BsFitPoint> points = {{1000, 1e-6}, {2000, 4e-6}, {3000, 7e-6}};
  const BsPaperFit fit = fit_paper(points);
  ASSERT_TRUE(fit.valid);
  EXPECT_NEAR(fit.T0_seconds, -2e-6, 1e-15);
  EXPECT_NEAR(fit.Wmax_Bps, 1.0 / 3e-9, 1e-9 / 3e-9);
  EXPECT_NEAR(fit.B08_bytes(), -8e-6 / 3e-9, 1e-6);  // 4 * -2e-6 / 3e-9 = -2666.67 B
}

TEST(BsPaperFit, DegenerateInputsAreInvalid) {
  EXPECT_FALSE(fit_paper(std::vector<BsFitPoint>{{1000, 1e-6}}).valid);
  EXPECT_FALSE(fit_paper(std::vector<BsFitPoint>{{1000, 1e-6}, {1000, 2e-6}}).valid);  // one size
  EXPECT_FALSE(fit_paper(std::vector<BsFitPoint>{{1000, 2e-6}, {2000, 1e-6}}).valid);  // falling
  EXPECT_FALSE(fit_paper(std::vector<BsFitPoint>{{1000, 0.0}, {2000, 1e-6}}).valid);
}

TEST(BsPaperFit, SeriesUsesEverySizeAndTheMeanTime) {
  // Means 3, 5, 9, 17 us (the minimums give another line): the exact line
  // t = 1 us + B / 5e8 of the first test. The minimums less the measured
  // 0.5 us are all B / 5e8: the plateau our fit needs.
  BsSeries s;
  const std::vector<std::pair<std::uint64_t, std::vector<double>>> sizes = {
      {1000, {2.5e-6, 3.5e-6}}, {2000, {4.5e-6, 5.5e-6}}, {4000, {8.5e-6, 9.5e-6}}, {8000, {16.5e-6, 17.5e-6}}};
  for (const auto& [bytes, seconds] : sizes) {
    BsPoint p;
    p.bytes = bytes;
    p.seconds = seconds;
    p.validation.passed = true;
    s.points.push_back(p);
  }
  Table results = make_bs_results_table(), fits = make_bs_fits_table(), checks = make_checks_table();
  add_bs_series(results, fits, checks, RankIdentity{}, s, /*fit_min_bytes=*/0, /*T0 measured*/ 0.5e-6);
  ASSERT_EQ(fits.rows(), 1u);
  EXPECT_EQ(fits.get_int(0, "paper_fitted"), 1);
  EXPECT_EQ(fits.get_int(0, "paper_points"), 4);
  EXPECT_NEAR(fits.get_double(0, "T0_paper_seconds"), 1e-6, 1e-15);
  EXPECT_NEAR(fits.get_double(0, "Wmax_paper_Bps"), 5e8, 5e8 * 1e-9);
  EXPECT_NEAR(fits.get_double(0, "B08_paper_bytes"), 2000.0, 1e-6);
  EXPECT_NEAR(fits.get_double(0, "T0_seconds"), 0.5e-6, 1e-18);  // the measured one stays T0
  std::map<std::string, std::string> units;
  for (const Column& c : fits.columns()) units[c.name] = c.unit;
  EXPECT_EQ(units["T0_paper_seconds"], "s");
  EXPECT_EQ(units["Wmax_paper_Bps"], "B/s");
  EXPECT_EQ(units["B08_paper_bytes"], "B");
  // The summary shows both T0s: the measured 0.500 us and the paper's 1.000 us.
  const std::vector<std::string> lines = make_bs_report()->summary_lines({fits});
  bool header = false, both = false;
  for (const std::string& l : lines) {
    header = header || l.find("paper T0 us") != std::string::npos;
    both = both || (l.find("0.500") != std::string::npos && l.find("1.000") != std::string::npos);
  }
  EXPECT_TRUE(header);
  EXPECT_TRUE(both);
}

}  // namespace
}  // namespace bws::bs
