#pragma once
// The Mann-Whitney (Wilcoxon rank-sum) statistics of a series' splits, for
// the change-point search (model/ChangePoints.cpp): mid-ranks, the two-sided
// p-value of one split (exact for small sides, else normal with continuity
// correction) and the split of smallest p-value. Pure: no I/O.
#include <cstddef>
#include <vector>

namespace bws::model::rank_sum {

// Two-sided p-value of a rank-sum count u (pairs after > before, ties 1/2)
// for sides of na and nb values; tie_term = sum over tie groups of t^3 - t.
double rank_sum_p(double u, std::size_t na, std::size_t nb, double tie_term);

// Mid-ranks (1-based) of n values; tie_term as above.
std::vector<double> mid_ranks(const double* values, std::size_t n, double& tie_term);

struct BestSplit {
  std::size_t k = 0;  // split before position k of the segment; 0: none
  double p = 1.0;
};

// The split of smallest rank-sum p-value of a segment given its ranks
// (k in [min_segment, n - min_segment]).
BestSplit best_rank_split(const std::vector<double>& ranks, double tie_term, std::size_t min_segment);

}  // namespace bws::model::rank_sum
