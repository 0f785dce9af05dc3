#pragma once
// Fitting a plan to --time-budget, one way for every benchmark. A plan is a
// value; the benchmark names the sizes that may be lowered (knobs, in the
// order it prefers them) and how its plan is estimated. The fitter lowers
// the first knob that can still go down, one step at a time, until the
// estimate fits, and returns a new plan with what it changed: the plan
// line, the estimate, the stored configuration and the run then all read
// that one plan. A knob is lowered only when its option was left at its
// default (what the user typed is never changed behind their back).
#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/TimeEstimate.hpp"

namespace bws {

// One size the fitter may lower: its name in the fitted text ("reps"),
// whether its option was left at its default, one step down (false when it
// is at its floor, the plan unchanged) and its value as text ("20").
template <class Plan>
struct BudgetKnob {
  std::string name;
  bool free = true;
  std::function<bool(Plan&)> lower;
  std::function<std::string(const Plan&)> value;
};

template <class Plan>
struct FittedPlan {
  Plan plan;            // fitted; when nothing fits, as small as the free knobs allow
  TimeEstimate asked;   // the given plan's estimate
  bool fits = true;     // the plan's estimate is within the budget (or there is no budget)
  std::string changes;  // "reps 20 -> 11, points 20 -> 16"; "" when nothing changed
};

// "reps 20 -> 11, points 20 -> 16": the knobs whose value differs.
template <class Plan>
std::string budget_changes(const Plan& given, const Plan& fitted, const std::vector<BudgetKnob<Plan>>& knobs) {
  std::string text;
  std::vector<std::string> named;
  for (const BudgetKnob<Plan>& k : knobs) {
    bool seen = false;  // a knob may appear in several stages: name it once
    for (const std::string& n : named) seen = seen || n == k.name;
    const std::string before = k.value(given), after = k.value(fitted);
    if (seen || before == after) continue;
    named.push_back(k.name);
    if (!text.empty()) text += ", ";
    text += k.name + " " + before + " -> " + after;
  }
  return text;
}

// budget_seconds <= 0: no budget, the plan as given.
template <class Plan>
FittedPlan<Plan> fit_to_budget(const Plan& given, double budget_seconds,
                               const std::function<TimeEstimate(const Plan&)>& estimate,
                               const std::vector<BudgetKnob<Plan>>& knobs) {
  FittedPlan<Plan> out{given, estimate(given), true, ""};
  if (budget_seconds <= 0 || !out.asked.known()) return out;
  while (estimate(out.plan).seconds > budget_seconds) {
    bool lowered = false;
    for (const BudgetKnob<Plan>& k : knobs) {
      if (k.free && k.lower(out.plan)) {
        lowered = true;
        break;
      }
    }
    if (!lowered) {
      out.fits = false;
      break;
    }
  }
  out.changes = budget_changes(given, out.plan, knobs);
  return out;
}

// A knob over a whole-number field: one step is `step(value)` (e.g. minus
// one, or two thirds), never below `floor`.
template <class Plan, class Field, class Step>
BudgetKnob<Plan> whole_knob(std::string name, bool free, Field Plan::*field, Field floor, Step step) {
  return {std::move(name), free,
          [field, floor, step](Plan& p) {
            if (p.*field <= floor) return false;
            p.*field = std::max<Field>(floor, std::min<Field>(p.*field - 1, step(p.*field)));
            return true;
          },
          [field](const Plan& p) { return std::to_string(p.*field); }};
}

// The usual knob: one less, down to `floor`.
template <class Plan, class Field>
BudgetKnob<Plan> count_knob(std::string name, bool free, Field Plan::*field, Field floor) {
  return whole_knob(std::move(name), free, field, floor, [](Field v) { return v - 1; });
}

}  // namespace bws
