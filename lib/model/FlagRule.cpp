#include "model/FlagRule.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "model/RobustStats.hpp"

namespace bws::model {
namespace {

// Median of sorted[] without the element at index `skip`.
double median_without(const std::vector<double>& sorted, std::size_t skip) {
  const std::size_t count = sorted.size() - 1;
  auto at = [&](std::size_t j) { return sorted[j < skip ? j : j + 1]; };
  if (count == 0) return std::nan("");
  if (count % 2 == 1) return at(count / 2);
  const double lower = at(count / 2 - 1), upper = at(count / 2);
  return lower + (upper - lower) / 2;
}

}  // namespace

const char* to_string(FlagRuleHit hit) {
  switch (hit) {
    case FlagRuleHit::None: return "";
    case FlagRuleHit::Deficit: return "fraction";
    case FlagRuleHit::Spread: return "spread";
  }
  return "";
}

double spread_rule_k(double k, std::size_t n) {
  if (n == 0) return k;
  return std::max(k - kSmallCohortK / std::sqrt(static_cast<double>(n)), k / 2);
}

std::vector<CohortVerdict> judge_cohort(std::span<const double> values, bool higher_is_better, const FlagRule& rule) {
  const std::size_t n = values.size();
  std::vector<CohortVerdict> verdicts(n);
  if (n == 0) return verdicts;
  // Rates: larger is better for every comparison below.
  std::vector<double> rates(n);
  for (std::size_t i = 0; i < n; ++i) rates[i] = higher_is_better ? values[i] : 1 / values[i];
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rates[a] < rates[b]; });
  std::vector<double> sorted(n);
  std::vector<std::size_t> rank(n);
  for (std::size_t r = 0; r < n; ++r) {
    sorted[r] = rates[order[r]];
    rank[order[r]] = r;
  }
  // One MAD for the whole cohort: one slow node moves it by at most one rank.
  const double cohort_median = median_of(rates);
  const double mad = median_absolute_deviation(rates);
  const bool deficit_rule = n >= static_cast<std::size_t>(kMinCohortForDeficitRule);
  const bool spread_rule = n >= static_cast<std::size_t>(kMinCohortForSpreadRule);
  const double k_n = spread_rule ? spread_rule_k(rule.k, n) : 0;
  for (std::size_t i = 0; i < n; ++i) {
    CohortVerdict& v = verdicts[i];
    const double m = n == 1 ? cohort_median : median_without(sorted, rank[i]);
    const double sigma = std::max(kMadToSigma * mad, kNoiseFloorFraction * m);
    double limit = deficit_rule ? rule.fraction * m : 0;  // in rates
    if (deficit_rule && rates[i] < rule.fraction * m) v.hit = FlagRuleHit::Deficit;
    // A limit in rates back in the metric's unit (times: the reciprocal).
    auto in_unit = [&](double rate_limit) { return higher_is_better ? rate_limit : (rate_limit > 0 ? 1 / rate_limit : INFINITY); };
    if (deficit_rule) v.fraction_limit = in_unit(rule.fraction * m);
    if (spread_rule) {
      const double spread_limit = std::min(m - k_n * sigma, (1 - kSpreadRuleMinDeficit) * m);
      limit = std::max(limit, spread_limit);
      v.spread_limit = in_unit(spread_limit);
      if (v.hit == FlagRuleHit::None && rates[i] < spread_limit) v.hit = FlagRuleHit::Spread;
    }
    v.peer_median = higher_is_better ? m : 1 / m;
    v.sigma = sigma;
    v.robust_z = sigma > 0 ? (rates[i] - m) / sigma : 0;
    v.limit = in_unit(limit);
    v.k_used = k_n;
  }
  return verdicts;
}

}  // namespace bws::model
