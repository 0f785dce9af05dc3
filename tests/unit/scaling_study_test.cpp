// lib/model/ScalingStudy: b_eff across runs against n x the per-rank
// reference and the line through the origin (bwreport scaling).
#include <gtest/gtest.h>

#include "model/ScalingStudy.hpp"

using namespace bws::model;

TEST(ScalingStudy, ReferenceFromTheSmallestMultiRankRun) {
  const ScalingStudy s = analyse_scaling_study(
      {{"03-n4", 4, 4, 5.6e9}, {"01-n1", 1, 1, 1e9}, {"02-n2", 2, 2, 3e9}}, 0.8);
  EXPECT_EQ(s.reference_run, "02-n2");  // one rank exchanges with itself: not the reference
  EXPECT_DOUBLE_EQ(s.reference_per_rank_Bps, 1.5e9);
  ASSERT_EQ(s.points.size(), 3u);
  EXPECT_EQ(s.points[0].run.name, "01-n1");  // by ranks
  EXPECT_NEAR(s.points[2].efficiency, 5.6 / 6.0, 1e-12);
  EXPECT_TRUE(s.points[2].passed);
  EXPECT_NEAR(s.points[0].efficiency, 1.0 / 1.5, 1e-12);
  EXPECT_FALSE(s.points[0].passed);
  // slope = sum(n b) / sum(n^2) = (1 + 6 + 22.4) / 21 GB/s
  EXPECT_NEAR(s.fit.slope_Bps_per_rank, 29.4e9 / 21, 1);
  EXPECT_NEAR(s.fit_efficiency, (29.4 / 21) / 1.5, 1e-12);
  ASSERT_EQ(s.checks.size(), 4u);
  EXPECT_EQ(s.checks[0].check, "scaling.efficiency");
  EXPECT_EQ(s.checks.back().check, "scaling.linear_fit");
  EXPECT_TRUE(s.checks.back().passed);
}

TEST(ScalingStudy, OneRankRunsOnlyFallBackToThemselves) {
  const ScalingStudy s = analyse_scaling_study({{"a", 1, 1, 2e9}}, 0.8);
  EXPECT_EQ(s.reference_run, "a");
  EXPECT_DOUBLE_EQ(s.points[0].efficiency, 1.0);
  EXPECT_THROW(analyse_scaling_study({}, 0.8), std::invalid_argument);
}
