// lib/model/ChangePoints: steps in one node's series. The series are built
// here, by hand or from a fixed-seed generator written in this file (its own
// Box-Muller on std::mt19937, whose output the standard fixes), and the
// expected index and size come from the construction, never from the code
// under test. bench/change_points measures the method statistically.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "model/ChangePoints.hpp"

using namespace bws::model;

namespace {

// Normal noise, the same on every platform (std::normal_distribution is not).
class Noise {
 public:
  explicit Noise(std::uint32_t seed) : rng_(seed) {}
  double normal() {
    const double u1 = (double(rng_()) + 1.0) / 4294967296.0;  // (0, 1]
    const double u2 = double(rng_()) / 4294967296.0;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
  // `count` values at `level` with relative noise `cv`.
  void append(std::vector<double>& v, std::size_t count, double level, double cv) {
    for (std::size_t i = 0; i < count; ++i) v.push_back(level * (1 + cv * normal()));
  }

 private:
  std::mt19937 rng_;
};

const ChangePointOptions kDefaults{};

}  // namespace

TEST(ChangePoints, DefaultsAreTheDocumentedOnes) {
  EXPECT_DOUBLE_EQ(kDefaults.min_change_fraction, 0.05);
  EXPECT_DOUBLE_EQ(kDefaults.max_false_alarm, 0.006);
  EXPECT_EQ(kDefaults.min_segment, 3u);
}

TEST(ChangePoints, NoiselessStepIsFoundAtItsIndexWithItsSize) {
  // 20 surveys at 10, then 20 at 12: the new level starts at index 20, +20 %.
  std::vector<double> v(20, 10.0);
  v.insert(v.end(), 20, 12.0);
  const auto found = find_change_points(v, kDefaults);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index, 20u);
  EXPECT_DOUBLE_EQ(found[0].before_median, 10.0);
  EXPECT_DOUBLE_EQ(found[0].after_median, 12.0);
  EXPECT_NEAR(found[0].change_fraction, 0.20, 1e-12);
  EXPECT_GT(found[0].confidence, 0.99);
  EXPECT_LE(found[0].confidence, 1.0);
}

TEST(ChangePoints, NoisyStepDownIsFoundWithinOneSurvey) {
  // 40 surveys at 100, 40 at 88 (-12 %), 1 % noise: index 40 +-1, size
  // -12 % within 2 points (the medians of 40 values at 1 % noise are within
  // about 0.6 % of their level).
  Noise noise(7);
  std::vector<double> v;
  noise.append(v, 40, 100.0, 0.01);
  noise.append(v, 40, 88.0, 0.01);
  const auto found = find_change_points(v, kDefaults);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NEAR(double(found[0].index), 40.0, 1.0);
  EXPECT_NEAR(found[0].change_fraction, -0.12, 0.02);
  EXPECT_NEAR(found[0].before_median, 100.0, 1.5);
  EXPECT_NEAR(found[0].after_median, 88.0, 1.5);
  EXPECT_GT(found[0].confidence, 0.99);
}

TEST(ChangePoints, NoisyStepUpIsFoundWithinOneSurvey) {
  // 25 surveys at 50, 35 at 57.5 (+15 %), 2 % noise.
  Noise noise(11);
  std::vector<double> v;
  noise.append(v, 25, 50.0, 0.02);
  noise.append(v, 35, 57.5, 0.02);
  const auto found = find_change_points(v, kDefaults);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NEAR(double(found[0].index), 25.0, 1.0);
  EXPECT_NEAR(found[0].change_fraction, 0.15, 0.025);
}

TEST(ChangePoints, StepInTheLastThreeSurveysIsFound) {
  // 57 surveys at 100, then 3 at 80 (-20 %), 1 % noise: the newest change,
  // with min_segment = 3 surveys after it.
  Noise noise(3);
  std::vector<double> v;
  noise.append(v, 57, 100.0, 0.01);
  noise.append(v, 3, 80.0, 0.01);
  const auto found = find_change_points(v, kDefaults);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index, 57u);
  EXPECT_NEAR(found[0].change_fraction, -0.20, 0.03);
}

TEST(ChangePoints, ANewStepInAShortSeriesIsPlacedAtItsFirstSurvey) {
  // Ten surveys, the level down 75 % from the sixth (index 5) or the
  // seventh (index 6) on, 1 % noise: too short for the rank test, so the
  // edge test finds it, and it must name the first survey at the new level,
  // not one later (each of its splits scores alike; the place is its own).
  for (const std::size_t first_low : {std::size_t{5}, std::size_t{6}}) {
    Noise noise(11);
    std::vector<double> v;
    noise.append(v, first_low, 100.0, 0.01);
    noise.append(v, 10 - first_low, 25.0, 0.01);
    const auto found = find_change_points(v, kDefaults);
    ASSERT_EQ(found.size(), 1u) << first_low;
    EXPECT_EQ(found[0].index, first_low);
    EXPECT_NEAR(found[0].change_fraction, -0.75, 0.03);
  }
}

TEST(ChangePoints, TwoStepsAreBothFound) {
  // 40 at 100, 40 at 115, 40 at 100 (2 % noise): changes at 40 and 80.
  Noise noise(5);
  std::vector<double> v;
  noise.append(v, 40, 100.0, 0.02);
  noise.append(v, 40, 115.0, 0.02);
  noise.append(v, 40, 100.0, 0.02);
  const auto found = find_change_points(v, kDefaults);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_NEAR(double(found[0].index), 40.0, 1.0);
  EXPECT_NEAR(double(found[1].index), 80.0, 1.0);
  EXPECT_NEAR(found[0].change_fraction, 0.15, 0.03);
  EXPECT_NEAR(found[1].change_fraction, 100.0 / 115.0 - 1, 0.03);  // -13 %
  // Each change's medians are those between its neighbours.
  EXPECT_NEAR(found[1].before_median, 115.0, 2.0);
  EXPECT_NEAR(found[0].after_median, 115.0, 2.0);
}

TEST(ChangePoints, SingleOutliersDoNotCount) {
  // 80 surveys at 100, 1 % noise, with single wild values: 60 at index 20,
  // 150 at 50, 55 at 79 (the newest survey) and 140 at 77.
  Noise noise(13);
  std::vector<double> v;
  noise.append(v, 80, 100.0, 0.01);
  v[20] = 60.0;
  v[50] = 150.0;
  v[77] = 140.0;
  v[79] = 55.0;
  EXPECT_TRUE(find_change_points(v, kDefaults).empty());
  // One wild value among the last three, alone.
  std::vector<double> w;
  noise.append(w, 60, 100.0, 0.01);
  w[58] = 65.0;
  EXPECT_TRUE(find_change_points(w, kDefaults).empty());
}

TEST(ChangePoints, SeriesWithoutAStepHaveNone) {
  EXPECT_TRUE(find_change_points(std::vector<double>(100, 42.0), kDefaults).empty());
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    Noise noise(seed);
    std::vector<double> v;
    noise.append(v, 100, 100.0, 0.03);
    EXPECT_TRUE(find_change_points(v, kDefaults).empty()) << "seed " << seed;
  }
}

TEST(ChangePoints, TooShortSeriesHaveNone) {
  // Fewer than 2 * min_segment values cannot have min_segment on each side.
  EXPECT_TRUE(find_change_points({}, kDefaults).empty());
  EXPECT_TRUE(find_change_points({100.0}, kDefaults).empty());
  EXPECT_TRUE(find_change_points({100, 100, 200, 200, 200}, kDefaults).empty());
}

TEST(ChangePoints, StepBelowMinChangeIsNotReported) {
  // A 3 % step at 0.3 % noise: clearly real (10 sigma), but smaller than the
  // default 5 %. Found once the threshold is 2 %.
  Noise noise(17);
  std::vector<double> v;
  noise.append(v, 50, 100.0, 0.003);
  noise.append(v, 50, 103.0, 0.003);
  EXPECT_TRUE(find_change_points(v, kDefaults).empty());
  ChangePointOptions two_percent;
  two_percent.min_change_fraction = 0.02;
  const auto found = find_change_points(v, two_percent);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NEAR(double(found[0].index), 50.0, 1.0);
  EXPECT_NEAR(found[0].change_fraction, 0.03, 0.005);
}

TEST(ChangePoints, NonFiniteValuesAreSkippedAndIndicesStayTheCallers) {
  // 20 at 10, a NaN, 20 at 12 with an inf among them: the first value at
  // the new level is at index 21 of the caller's vector.
  std::vector<double> v(20, 10.0);
  v.push_back(std::numeric_limits<double>::quiet_NaN());
  v.insert(v.end(), 20, 12.0);
  v[30] = std::numeric_limits<double>::infinity();
  const auto found = find_change_points(v, kDefaults);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index, 21u);
  EXPECT_DOUBLE_EQ(found[0].before_median, 10.0);
  EXPECT_DOUBLE_EQ(found[0].after_median, 12.0);
  // Only NaNs: nothing.
  EXPECT_TRUE(find_change_points(std::vector<double>(10, std::nan("")), kDefaults).empty());
}

TEST(ChangePoints, SameInputSameAnswer) {
  Noise noise(19);
  std::vector<double> v;
  noise.append(v, 30, 100.0, 0.03);
  noise.append(v, 30, 85.0, 0.03);
  const auto a = find_change_points(v, kDefaults);
  const auto b = find_change_points(v, kDefaults);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].index, b[i].index);
    EXPECT_EQ(a[i].confidence, b[i].confidence);
  }
}

TEST(ChangePoints, BadOptionsAreRefused) {
  ChangePointOptions o;
  o.max_false_alarm = 0;
  EXPECT_THROW(find_change_points({1, 2, 3}, o), std::invalid_argument);
  o.max_false_alarm = 1;
  EXPECT_THROW(find_change_points({1, 2, 3}, o), std::invalid_argument);
  o = ChangePointOptions{};
  o.min_change_fraction = -0.1;
  EXPECT_THROW(find_change_points({1, 2, 3}, o), std::invalid_argument);
}
