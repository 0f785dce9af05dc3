// Change points by binary segmentation with the Mann-Whitney (Wilcoxon
// rank-sum) test over every split, and a threshold on the smallest p-value
// of a segment calibrated on that segment length's exact permutation null.
// Why this method and what was rejected: docs/design-notes.md,
// "Change points".
//
// One segment [lo, hi) of the series:
//  1. mid-ranks of its values (ties share their mean rank);
//  2. for every split k with at least min_segment values on each side, the
//     two-sided rank-sum p-value of "the values after k are shifted against
//     those before": exact (the q-binomial count of rank configurations)
//     when the smaller side has at most kExactMaxSide values, else the
//     normal approximation with continuity correction. The exact count
//     matters at the end of a series: three surveys after a step can give
//     p = 1e-5, the normal approximation never below 3e-3;
//  3. the smallest p over the splits is compared with the alpha-quantile of
//     the same statistic on random permutations of that segment length
//     (alpha: its share of max_false_alarm): under "no change" every order
//     of the values is equally likely, whatever their distribution, so the
//     threshold holds for any noise, heavy tails included (ties: see the
//     tie-corrected p; the null has none). The quantile is simulated once
//     per (length, min_segment, alpha) with a fixed seed and cached;
//  4. the split of smallest p is a change point when its two sides' medians
//     differ by at least min_change_fraction; reported or too small,
//     both sides are searched again;
//  5. a segment that ends with the series and has no significant split gets
//     the edge test (below): is the level of its last
//     min_segment..kEdgeMaxSide surveys off?
// The two tests share max_false_alarm (kRankShare).
// Finally every change point's medians are taken between its neighbours.
#include "model/ChangePoints.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <numeric>
#include <random>
#include <stdexcept>
#include <tuple>

#include "core/SampleStats.hpp"
#include "model/RankSum.hpp"

namespace bws::model {
namespace {

using rank_sum::best_rank_split;
using rank_sum::BestSplit;
using rank_sum::mid_ranks;

constexpr double kNullSimulationsPerAlpha = 60;   // null draws = this / alpha: ~60 beyond the quantile (+-13 %)
constexpr std::uint64_t kNullSeed = 0x6270737572766579ULL;  // fixed: the same thresholds every run

// The null distribution of a segment's smallest split p-value, by random
// permutations of 1..n (no ties), sorted ascending.
std::vector<double> simulate_null(std::size_t n, std::size_t min_segment, double alpha) {
  const auto simulations = static_cast<std::size_t>(std::ceil(kNullSimulationsPerAlpha / alpha));
  std::mt19937_64 rng(kNullSeed ^ (std::uint64_t(n) << 20) ^ std::uint64_t(min_segment));
  std::vector<double> ranks(n);
  std::iota(ranks.begin(), ranks.end(), 1.0);
  std::vector<double> out;
  out.reserve(simulations);
  for (std::size_t s = 0; s < simulations; ++s) {
    for (std::size_t i = n - 1; i > 0; --i) std::swap(ranks[i], ranks[rng() % (i + 1)]);  // Fisher-Yates, portable
    out.push_back(best_rank_split(ranks, 0.0, min_segment).p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

double median_of_values(const std::vector<double>& v) { return median_of(v); }

double median_of_range(const std::vector<double>& values, std::size_t lo, std::size_t hi) {
  return median_of_values(std::vector<double>(values.begin() + std::ptrdiff_t(lo), values.begin() + std::ptrdiff_t(hi)));
}

double change_fraction_of(double before, double after) {
  if (before == 0) return after == 0 ? 0.0 : std::copysign(INFINITY, after);
  return (after - before) / std::fabs(before);
}

// --- The edge test: a step in the last few surveys ------------------------
//
// Three surveys after a step are too few for any rank test: the smallest
// two-sided rank-sum p-value of 3 values against 97 is 1.2e-5, about the
// threshold itself. At the end (the newest surveys, where a change has had
// no time to collect more; an old change has many surveys on both sides and
// the rank test sees it) the short side's level is therefore a skipped mean
// (one wild value among three is dropped) compared with the long side's
// median, in units of the series' own noise (noise_sigma). Its threshold is simulated on
// Gaussian noise (the statistic is location- and scale-free, so one null per
// length serves every series); heavy tails are the skipped mean's job.

constexpr std::size_t kEdgeMaxSide = 5;     // short sides of min_segment..this surveys (the rank test sees more)
constexpr double kMedianVarianceFactor = 1.5707963267948966;  // var(median) ~ (pi/2) sigma^2 / n

// The noise sigma from the first differences, the largest 10 % of them left
// out (a step changes one difference, an outlier two): the root mean square
// of the rest, corrected for the trimming (for normal noise the kept
// differences have E[d^2] = 0.6232 * 2 sigma^2). Twice as efficient as the
// MAD of the differences, which matters: the threshold of a ratio with a
// noisy denominator is a t-quantile, far above the normal one.
constexpr double kTrimmedShare = 0.10;
constexpr double kTrimmedSecondMoment = 0.6232;  // E[Z^2 | |Z| < 1.6449] for Z ~ N(0, 1)

double noise_sigma(const double* v, std::size_t n) {
  if (n < 3) return 0;
  std::vector<double> d(n - 1);
  for (std::size_t i = 0; i + 1 < n; ++i) d[i] = std::fabs(v[i + 1] - v[i]);
  const auto kept = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil((1 - kTrimmedShare) * double(d.size()))));
  std::nth_element(d.begin(), d.begin() + std::ptrdiff_t(kept - 1), d.end());
  double sum_squares = 0;
  for (std::size_t i = 0; i < kept; ++i) sum_squares += d[i] * d[i];
  return std::sqrt(sum_squares / double(kept) / kTrimmedSecondMoment / 2.0);
}

// The level of a few values: the mean of those within kSkipSigmas noise
// sigmas of their median (a "skipped mean": fully efficient on normal noise,
// where nothing is skipped, and one wild value among three is dropped
// instead of dragging the level, as it would a mean, or leaving it to the
// other two's lower one, as a median does). `kept` returns how many counted.
constexpr double kSkipSigmas = 3.0;

double skipped_mean(const double* v, std::size_t n, double sigma, std::size_t& kept) {
  const double centre = median_of_values(std::vector<double>(v, v + n));
  double sum = 0;
  kept = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (std::fabs(v[i] - centre) <= kSkipSigmas * sigma) {
      sum += v[i];
      ++kept;
    }
  return kept ? sum / double(kept) : centre;
}

struct EdgeSplit {
  std::size_t k = 0;        // split position in the segment
  double z = 0;             // |level difference| / its standard error
  double before_level = 0;  // the long side's median
  double after_level = 0;   // the short side's skipped mean
};

// The edge split of largest |z| of a segment (k = 0: none possible).
EdgeSplit best_edge_split(const double* v, std::size_t n, std::size_t min_segment) {
  EdgeSplit best;
  if (n < 2 * min_segment) return best;
  double sigma = noise_sigma(v, n);
  const double scale = std::fabs(median_of_values(std::vector<double>(v, v + n)));
  sigma = std::max(sigma, 1e-9 * std::max(scale, 1e-300));  // a noiseless series: any step is significant
  for (std::size_t m = min_segment; m <= kEdgeMaxSide && 2 * m <= n; ++m) {
    const std::size_t k = n - m;  // the short side is [k, n): the newest surveys
    std::size_t kept = 0;
    const double short_level = skipped_mean(v + k, m, sigma, kept);
    if (kept < 2) continue;  // one value left is no level
    const double long_level = median_of_values(std::vector<double>(v, v + k));
    const double se = sigma * std::sqrt(1.0 / double(kept) + kMedianVarianceFactor / double(k));
    const double z = std::fabs(short_level - long_level) / se;
    if (z > best.z) best = {k, z, long_level, short_level};
  }
  return best;
}

// The null distribution of best_edge_split's z on Gaussian noise, sorted
// descending.
std::vector<double> simulate_edge_null(std::size_t n, std::size_t min_segment, double alpha) {
  const auto simulations = static_cast<std::size_t>(std::ceil(kNullSimulationsPerAlpha / alpha));
  std::mt19937_64 rng(kNullSeed ^ 0x5a5a5a5aULL ^ (std::uint64_t(n) << 20) ^ std::uint64_t(min_segment));
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> v(n), out;
  out.reserve(simulations);
  for (std::size_t s = 0; s < simulations; ++s) {
    for (auto& x : v) x = normal(rng);
    out.push_back(best_edge_split(v.data(), n, min_segment).z);
  }
  std::sort(out.begin(), out.end(), std::greater<double>());
  return out;
}

// The two tests' nulls per segment length, each simulated once (thread-safe).
enum class NullKind { kRank, kEdge };

const std::vector<double>& cached_null(NullKind kind, std::size_t n, std::size_t min_segment, double alpha) {
  static std::mutex mutex;
  static std::map<std::tuple<NullKind, std::size_t, std::size_t, double>, std::vector<double>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_tuple(kind, n, min_segment, alpha);
  auto it = cache.find(key);
  if (it == cache.end())
    it = cache.emplace(key, kind == NullKind::kRank ? simulate_null(n, min_segment, alpha)
                                                   : simulate_edge_null(n, min_segment, alpha)).first;
  return it->second;
}

// --- Binary segmentation ---------------------------------------------------

constexpr double kRankShare = 0.4;  // of max_false_alarm; the edge test has the rest

struct Found {
  std::size_t index;
  double confidence;
};

// The rank test's most significant split of a segment (its position in the
// segment; 0: none significant) and its confidence; `big_enough`: whether
// its medians differ by min_change_fraction.
std::size_t rank_split(const std::vector<double>& values, std::size_t lo, std::size_t hi,
                       const ChangePointOptions& options, double alpha, double& confidence, bool& big_enough) {
  const std::size_t n = hi - lo;
  double tie_term = 0;
  const auto ranks = mid_ranks(values.data() + lo, n, tie_term);
  const BestSplit split = best_rank_split(ranks, tie_term, options.min_segment);
  const std::size_t best_at = split.k;
  const double best = split.p;
  if (!(best <= alpha)) return 0;  // the threshold never exceeds alpha: no simulation needed
  const auto& null = cached_null(NullKind::kRank, n, options.min_segment, alpha);
  // The alpha-quantile of the null: a segment whose smallest p is at or
  // below it has a change.
  const std::size_t q = static_cast<std::size_t>(std::floor(alpha * double(null.size())));
  const double threshold = q == 0 ? 0.0 : null[q - 1];
  if (best > threshold) return 0;
  const double size =
      std::fabs(change_fraction_of(median_of_range(values, lo, lo + best_at), median_of_range(values, lo + best_at, hi)));
  big_enough = size >= options.min_change_fraction;
  // The permutation p-value: the share of random orders whose smallest
  // split p-value is at least as small (over the test's share of the budget).
  const auto at_or_below = std::upper_bound(null.begin(), null.end(), best) - null.begin();
  confidence = 1.0 - std::min(1.0, double(at_or_below + 1) / double(null.size() + 1) / kRankShare);
  return best_at;
}

// Where the edge step is, once the edge test found one: its z does not
// place it (the long side's median barely moves when the split takes one
// value of the new level into it, so a split one survey late scores as high
// as the right one). The least-absolute-deviation split among the edge
// splits does: every value on its side of the level it belongs to.
std::size_t locate_edge_split(const double* v, std::size_t n, std::size_t min_segment) {
  auto deviation = [&](std::size_t from, std::size_t to) {
    const double centre = median_of_values(std::vector<double>(v + from, v + to));
    double sum = 0;
    for (std::size_t i = from; i < to; ++i) sum += std::fabs(v[i] - centre);
    return sum;
  };
  std::size_t best_k = 0;
  double best_cost = INFINITY;
  for (std::size_t m = min_segment; m <= kEdgeMaxSide && 2 * m <= n; ++m) {
    const std::size_t k = n - m;
    const double cost = deviation(0, k) + deviation(k, n);
    if (cost < best_cost) {
      best_cost = cost;
      best_k = k;
    }
  }
  return best_k;
}

std::size_t edge_split(const std::vector<double>& values, std::size_t lo, std::size_t hi,
                       const ChangePointOptions& options, double alpha, double& confidence) {
  const std::size_t n = hi - lo;
  const EdgeSplit best = best_edge_split(values.data() + lo, n, options.min_segment);
  if (best.k == 0) return 0;
  // The threshold of the largest of several |z| (each a ratio with an
  // estimated sigma: tails at least normal) is above one normal |z|'s: below
  // that no simulation is needed.
  if (!(std::erfc(best.z / std::sqrt(2.0)) <= alpha)) return 0;
  const auto& null = cached_null(NullKind::kEdge, n, options.min_segment, alpha);  // descending
  const std::size_t q = static_cast<std::size_t>(std::floor(alpha * double(null.size())));
  const double threshold = q == 0 ? INFINITY : null[q - 1];
  if (!(best.z >= threshold)) return 0;
  const double size = std::fabs(change_fraction_of(best.before_level, best.after_level));
  if (!(size >= options.min_change_fraction)) return 0;
  const auto at_or_above = std::upper_bound(null.begin(), null.end(), best.z, std::greater<double>()) - null.begin();
  confidence = 1.0 - std::min(1.0, double(at_or_above + 1) / double(null.size() + 1) / (1 - kRankShare));
  return locate_edge_split(values.data() + lo, n, options.min_segment);
}

void search(const std::vector<double>& values, std::size_t lo, std::size_t hi, const ChangePointOptions& options,
            std::vector<Found>& found) {
  const bool newest = hi == values.size();  // the edge test is for the newest surveys only
  const std::size_t n = hi - lo;
  if (n < 2 * options.min_segment) return;
  // The budget: together at most max_false_alarm. The edge test gets more:
  // three surveys after a step need every bit, the rank test has power to
  // spare (docs/PERFORMANCE.md).
  const double rank_alpha = options.max_false_alarm * kRankShare;
  const double edge_alpha = options.max_false_alarm * (1 - kRankShare);
  double confidence = 0;
  bool big_enough = false;
  std::size_t k = rank_split(values, lo, hi, options, rank_alpha, confidence, big_enough);
  if (k == 0 && newest) {
    k = edge_split(values, lo, hi, options, edge_alpha, confidence);
    big_enough = k != 0;
  }
  if (k == 0) return;
  // A significant split too small to report still splits the segment: a
  // step up and back down (40 surveys at 100, 40 at 115, 40 at 100) has its
  // most significant split where the medians are mixed, and each side then
  // shows one step of full size.
  if (big_enough) found.push_back({lo + k, confidence});
  search(values, lo, lo + k, options, found);
  search(values, lo + k, hi, options, found);
}

}  // namespace

std::vector<ChangePoint> find_change_points(const std::vector<double>& values, const ChangePointOptions& options) {
  if (!(options.max_false_alarm > 0 && options.max_false_alarm < 1))
    throw std::invalid_argument("max_false_alarm must be in (0, 1)");
  if (!(options.min_change_fraction >= 0)) throw std::invalid_argument("min_change_fraction must be >= 0");
  ChangePointOptions checked = options;
  checked.min_segment = std::max<std::size_t>(1, options.min_segment);
  // Non-finite values are skipped; indices stay those of `values`.
  std::vector<double> finite;
  std::vector<std::size_t> position;
  for (std::size_t i = 0; i < values.size(); ++i)
    if (std::isfinite(values[i])) {
      finite.push_back(values[i]);
      position.push_back(i);
    }
  std::vector<Found> found;
  search(finite, 0, finite.size(), checked, found);
  std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.index < b.index; });
  std::vector<ChangePoint> out;
  for (std::size_t i = 0; i < found.size(); ++i) {
    const std::size_t from = i == 0 ? 0 : found[i - 1].index;
    const std::size_t to = i + 1 == found.size() ? finite.size() : found[i + 1].index;
    ChangePoint c;
    c.index = position[found[i].index];
    c.before_median = median_of_range(finite, from, found[i].index);
    c.after_median = median_of_range(finite, found[i].index, to);
    c.change_fraction = change_fraction_of(c.before_median, c.after_median);
    c.confidence = std::clamp(found[i].confidence, 0.0, 1.0);
    out.push_back(c);
  }
  return out;
}

}  // namespace bws::model
