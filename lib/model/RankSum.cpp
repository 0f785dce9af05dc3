// The rank-sum statistics of the change-point search; why exact tails at
// the end of a series: model/ChangePoints.cpp and docs/design-notes.md,
// "Change points".
#include "model/RankSum.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace bws::model::rank_sum {
namespace {

constexpr std::size_t kExactMaxSide = 12;         // exact rank-sum tail up to this smaller side
constexpr double kExactMaxCount = 2000;           // ... and this many rank inversions (else normal)
constexpr double kExactBelowNormalP = 0.2;        // ... where the normal approximation gives p below this

// log C(n, k).
double log_choose(double n, double k) { return std::lgamma(n + 1) - std::lgamma(k + 1) - std::lgamma(n - k + 1); }

// P(U <= u) for the rank-sum count U of a side of m values against n others
// (no ties): the coefficients of the Gaussian binomial [m+n choose m]_q up to
// degree u, over C(m+n, m).
double exact_lower_tail(std::size_t m, std::size_t n, std::size_t u) {
  std::vector<double> c(u + 1, 0.0);
  c[0] = 1.0;
  for (std::size_t i = 1; i <= m; ++i) {
    // times (1 - q^(n+i)): descending so every term uses the old coefficients
    const std::size_t shift = n + i;
    if (shift <= u)
      for (std::size_t d = u; d >= shift; --d) c[d] -= c[d - shift];
    // over (1 - q^i): a running sum with stride i
    for (std::size_t d = i; d <= u; ++d) c[d] += c[d - i];
  }
  double count = 0;
  for (double v : c) count += v;
  return std::min(1.0, std::exp(std::log(std::max(count, 0.0)) - log_choose(double(m + n), double(m))));
}

}  // namespace

// Two-sided p-value of a rank-sum count u (pairs after > before, ties 1/2)
// for sides of na and nb values; tie_term = sum over tie groups of t^3 - t.
double rank_sum_p(double u, std::size_t na, std::size_t nb, double tie_term) {
  const double pairs = double(na) * double(nb);
  const double u_low = std::min(u, pairs - u);
  const double n = double(na + nb);
  const double variance = pairs / 12.0 * ((n + 1) - tie_term / (n * (n - 1)));
  if (variance <= 0) return 1.0;
  const double z = (pairs / 2.0 - u_low - 0.5) / std::sqrt(variance);
  if (z <= 0) return 1.0;
  const double normal_p = std::min(1.0, std::erfc(z / std::sqrt(2.0)));
  // Far from significant: the exact tail would not change the verdict (and
  // the calibration in null_of holds for this statistic whatever it is).
  if (normal_p > kExactBelowNormalP) return normal_p;
  const std::size_t small = std::min(na, nb), large = std::max(na, nb);
  if (small <= kExactMaxSide && u_low <= kExactMaxCount)
    return std::min(1.0, 2.0 * exact_lower_tail(small, large, static_cast<std::size_t>(std::floor(u_low))));
  return normal_p;
}

// Mid-ranks (1-based) of values.
std::vector<double> mid_ranks(const double* values, std::size_t n, double& tie_term) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  std::vector<double> ranks(n);
  tie_term = 0;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i + 1;
    while (j < n && values[order[j]] == values[order[i]]) ++j;
    const double mid = (double(i + 1) + double(j)) / 2.0;
    for (std::size_t t = i; t < j; ++t) ranks[order[t]] = mid;
    const double t = double(j - i);
    tie_term += t * t * t - t;
    i = j;
  }
  return ranks;
}

// The split of smallest rank-sum p-value of a segment given its ranks
// (k in [min_segment, n - min_segment]). Where the normal approximation is
// used, p falls as |z| grows whatever the side sizes, so only the largest
// |z| among those splits needs its p; the splits with a small side (exact
// tails) are evaluated one by one.
BestSplit best_rank_split(const std::vector<double>& ranks, double tie_term, std::size_t min_segment) {
  const std::size_t n = ranks.size();
  BestSplit best;
  if (n < 2 * min_segment) return best;
  double total = 0;
  for (double r : ranks) total += r;
  const double nd = double(n);
  const double tie_factor = (nd + 1) - tie_term / (nd * (nd - 1));
  double before_sum = 0;
  std::size_t normal_k = 0;
  double normal_z = -1;
  for (std::size_t k = 0; k + min_segment <= n; ++k) {
    if (k >= min_segment) {
      const std::size_t na = n - k, nb = k;
      const double u = (total - before_sum) - double(na) * double(na + 1) / 2.0;
      if (std::min(na, nb) <= kExactMaxSide) {
        const double p = rank_sum_p(u, na, nb, tie_term);
        if (p < best.p) best = {k, p};
      } else {
        const double pairs = double(na) * double(nb);
        const double variance = pairs / 12.0 * tie_factor;
        const double z = variance > 0 ? (std::fabs(u - pairs / 2.0) - 0.5) / std::sqrt(variance) : 0.0;
        if (z > normal_z) {
          normal_z = z;
          normal_k = k;
        }
      }
    }
    before_sum += ranks[k];
  }
  if (normal_k != 0) {
    const double p = normal_z <= 0 ? 1.0 : std::min(1.0, std::erfc(normal_z / std::sqrt(2.0)));
    if (p < best.p) best = {normal_k, p};
  }
  return best;
}

}  // namespace bws::model::rank_sum
