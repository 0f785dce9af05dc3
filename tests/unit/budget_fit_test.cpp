// The one budget fitter (core/BudgetFit.hpp): knobs lowered in order, one
// step at a time, only when free; a new plan with what changed; nothing
// fits -> fits false with the smallest plan the free knobs allow.
#include "core/BudgetFit.hpp"

#include <gtest/gtest.h>

namespace bws {
namespace {

struct ToyPlan {
  int reps = 20;
  int points = 10;
};

// 0.01 s per repetition of each point: reps x points x 0.01 s.
TimeEstimate toy_estimate(const ToyPlan& p) { return {p.reps * p.points * 0.01, "toy"}; }

std::vector<BudgetKnob<ToyPlan>> toy_knobs(bool reps_free, bool points_free) {
  return {count_knob("reps", reps_free, &ToyPlan::reps, 2),
          whole_knob("points", points_free, &ToyPlan::points, 4, [](int p) { return p / 2; })};
}

TEST(BudgetFit, NoBudgetOrAFittingPlanIsUnchanged) {
  const ToyPlan given;
  const auto none = fit_to_budget<ToyPlan>(given, 0, toy_estimate, toy_knobs(true, true));
  EXPECT_TRUE(none.fits);
  EXPECT_EQ(none.plan.reps, 20);
  EXPECT_EQ(none.changes, "");
  EXPECT_DOUBLE_EQ(none.asked.seconds, 2.0);
  const auto roomy = fit_to_budget<ToyPlan>(given, 5, toy_estimate, toy_knobs(true, true));
  EXPECT_TRUE(roomy.fits);
  EXPECT_EQ(roomy.plan.reps, 20);
}

TEST(BudgetFit, LowersTheFirstFreeKnobThenTheNext) {
  const ToyPlan given;
  // 1.15 s: 11 reps x 10 points (1.1 s; 12 would take 1.2 s).
  const auto fewer = fit_to_budget<ToyPlan>(given, 1.15, toy_estimate, toy_knobs(true, true));
  EXPECT_TRUE(fewer.fits);
  EXPECT_EQ(fewer.plan.reps, 11);
  EXPECT_EQ(fewer.plan.points, 10);
  EXPECT_EQ(fewer.changes, "reps 20 -> 11");
  EXPECT_EQ(given.reps, 20);  // a new plan: the given one stays
  // 0.105 s: reps down to 2 (0.2 s), then points 10 -> 5 (0.1 s).
  const auto both = fit_to_budget<ToyPlan>(given, 0.105, toy_estimate, toy_knobs(true, true));
  EXPECT_TRUE(both.fits);
  EXPECT_EQ(both.plan.reps, 2);
  EXPECT_EQ(both.plan.points, 5);
  EXPECT_EQ(both.changes, "reps 20 -> 2, points 10 -> 5");
}

TEST(BudgetFit, AKnobGivenByTheUserStays) {
  const ToyPlan given;
  // reps given: points 10 -> 5 (1.0 s) fits 1.05 s; 0.5 s does not fit (4 points: 0.8 s).
  const auto kept = fit_to_budget<ToyPlan>(given, 1.05, toy_estimate, toy_knobs(false, true));
  EXPECT_TRUE(kept.fits);
  EXPECT_EQ(kept.plan.reps, 20);
  EXPECT_EQ(kept.changes, "points 10 -> 5");
  const auto over = fit_to_budget<ToyPlan>(given, 0.5, toy_estimate, toy_knobs(false, true));
  EXPECT_FALSE(over.fits);
  EXPECT_EQ(over.plan.points, 4);  // the floor: 5 / 2 = 2 is below it
  EXPECT_DOUBLE_EQ(over.asked.seconds, 2.0);
}

TEST(BudgetFit, AKnobInSeveralStagesIsNamedOnce) {
  const ToyPlan given;
  std::vector<BudgetKnob<ToyPlan>> knobs = {count_knob("reps", true, &ToyPlan::reps, 10),
                                            count_knob("points", true, &ToyPlan::points, 8),
                                            count_knob("reps", true, &ToyPlan::reps, 2)};
  // 0.41 s: reps 20 -> 10 (1.0 s), points 10 -> 8 (0.8 s), reps 10 -> 5 (0.4 s).
  const auto fitted = fit_to_budget<ToyPlan>(given, 0.41, toy_estimate, knobs);
  EXPECT_TRUE(fitted.fits);
  EXPECT_EQ(fitted.plan.reps, 5);
  EXPECT_EQ(fitted.plan.points, 8);
  EXPECT_EQ(fitted.changes, "reps 20 -> 5, points 10 -> 8");
}

}  // namespace
}  // namespace bws
