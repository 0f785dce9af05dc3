#pragma once
// The slow-node rule for one metric over one hardware cohort: which nodes
// measured too little. Pure, and the same function the survey, bwreport and
// bench/flag-rule run. The rule and the measurements behind its constants
// are in docs/design-notes.md ("The flag rule"); in short, for every node:
//   peers  = the cohort without the node (its own value never moves its
//            reference, which matters at 3 or 4 nodes)
//   m      = median of the peers
//   s      = max(1.4826 * MAD of the cohort, 1 % of m)   (robust sigma)
//   flagged when value < fraction * m                     (deficit rule, n >= 3)
//         or (n >= 8 and value < m - k_n * s and value < 0.95 * m)  (spread rule)
//   with k_n = max(k - 3.2/sqrt(n), k/2): close to k at large n, k - 1.13 at 8.
// The deficit rule holds at every size and any noise: a node at half of its
// peers is flagged even when 4 noisy nodes make the MAD useless. The spread
// rule finds smaller deficits where the cohort is large enough to know its
// noise; at small n it screens wide on purpose, because the in-job retest
// (--retest) confirms or dismisses every flag.
// Times (lower is better) are judged as their reciprocals, rates.
#include <cmath>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace bws::model {

inline constexpr int kMinCohortForDeficitRule = 3;
inline constexpr int kMinCohortForSpreadRule = 8;
// The spread rule never flags a node within this fraction of its peers: a
// 3 % difference in a cohort that agrees to 0.2 % is real but not actionable.
inline constexpr double kSpreadRuleMinDeficit = 0.05;
// Sigma is never taken below this fraction of the median: repeated runs of
// a memory benchmark on one node differ by about that much.
inline constexpr double kNoiseFloorFraction = 0.01;
// k_n = max(k - kSmallCohortK / sqrt(n), k / 2): 3.5 - 1.13 = 2.37 at 8
// nodes, 2.93 at 32, 3.40 at 1,000 (bench/flag-rule.sh measured the choice).
inline constexpr double kSmallCohortK = 3.2;

struct FlagRule {
  double k = 3.5;          // --flags.k: robust sigmas below the peers' median (large cohorts)
  double fraction = 0.75;  // --flags.fraction: below this fraction of the peers' median, always
};

enum class FlagRuleHit { None, Deficit, Spread };
const char* to_string(FlagRuleHit hit);  // "", "fraction", "spread"

struct CohortVerdict {
  FlagRuleHit hit = FlagRuleHit::None;
  double peer_median = 0;  // in the metric's own unit (a time for times)
  double sigma = 0;        // robust sigma of the cohort, in rate units (1/unit for times)
  double robust_z = 0;     // (value - peer median) / sigma, on rates: < 0 is worse
  double limit = 0;        // the value at which the node would be flagged, in the metric's unit
  // Each rule's own limit, in the metric's unit; NaN where the rule does not
  // apply (fewer than 3, or 8, nodes). `limit` is the stricter of the two.
  double fraction_limit = std::nan("");
  double spread_limit = std::nan("");
  double k_used = 0;       // k_n of the cohort's size (0 when the spread rule does not apply)
  bool flagged() const { return hit != FlagRuleHit::None; }
};

// k_n for a cohort of n nodes.
double spread_rule_k(double k, std::size_t n);

// One verdict per value, in order. Fewer than kMinCohortForDeficitRule
// values: nothing is flagged (verdicts still carry the peers' median).
// Values must be finite and > 0.
std::vector<CohortVerdict> judge_cohort(std::span<const double> values, bool higher_is_better, const FlagRule& rule);

}  // namespace bws::model
