#include "core/TimeEstimate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace bws {

std::string duration_text(double seconds) {
  char text[48];
  if (seconds < 0)
    return "unknown";
  else if (seconds < 10)
    std::snprintf(text, sizeof text, "%.2g s", seconds);
  else if (seconds < 600)
    std::snprintf(text, sizeof text, "%.0f s", seconds);
  else if (seconds < 7200)
    std::snprintf(text, sizeof text, "%.1f min", seconds / 60);
  else
    std::snprintf(text, sizeof text, "%.1f h", seconds / 3600);
  return text;
}

long long budget_that_fits(double seconds) {
  return static_cast<long long>(std::ceil(std::max(seconds * kAdviceHeadroom, 1.0)));
}

std::string over_budget_message(const std::string& test, const TimeEstimate& estimate, double budget_seconds,
                                const std::string& smaller) {
  char budget[32];
  std::snprintf(budget, sizeof budget, "%g", budget_seconds);
  return "--time-budget " + std::string(budget) + " s: " + test + "'s plan is estimated at " +
         duration_text(estimate.seconds) + " (" + estimate.terms + "); allowed: --time-budget " +
         std::to_string(budget_that_fits(estimate.seconds)) + " or more" + (smaller.empty() ? "" : ", or " + smaller);
}

}  // namespace bws
