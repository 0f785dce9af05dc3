#pragma once
// A node's figure from what its ranks measured together. The ranks of a
// node start every repetition together (they meet before each timed
// window), so a node's repetition takes as long as its slowest rank and
// moves the work of all of them: the node's time of repetition k is the
// largest of the ranks' times of k, its work the sum of theirs, and its rate
// the summed work over the best such time. STREAM, load and the roofline's
// GEMM and Triad use this; the roofline's FMA, whose ranks calibrated
// different loop counts, sums the ranks' rates per repetition instead.
//
// The one rule for missing samples: a repetition counts for the node only
// when every rank has it (the node's repetitions are the ones all ranks
// have; a rank with fewer was cut short). When some rank has no sample left
// after the warm-ups (a table stored without its samples), the node has no
// per-repetition times, and its statistics are, one by one, the slowest
// rank's own (the largest t_min, t_avg and t_max of the rows): the closest
// bound the rows still give. The median is then unknown (NaN).
#include <cstddef>
#include <vector>

#include "core/SampleStats.hpp"
#include "core/Table.hpp"

namespace bws {

class NodeAggregate {
 public:
  // warmups: the leading repetitions every rank's samples hold but no
  // statistic counts (STREAM's and load's first; 0 where none is stored).
  explicit NodeAggregate(std::size_t warmups = 0) : warmups_(warmups) {}

  // One rank's repetitions (warm-ups first), its own statistics and the work
  // (bytes or FLOP) of one repetition.
  void add(const std::vector<double>& seconds, const TimeStats& own, double work);
  // The same from row r of a results table: its samples, t_min, t_avg,
  // t_max, and work from the column named (e.g. "bytes").
  void add_row(const Table& table, std::size_t r, const char* work_column);

  int ranks() const { return ranks_; }
  double work() const { return work_; }
  // True when every rank had samples past the warm-ups.
  bool from_samples() const { return ranks_ > 0 && !missing_; }
  // Per repetition (warm-ups included) the slowest rank's seconds; empty
  // when !from_samples().
  const std::vector<double>& slowest_seconds() const { return slowest_; }
  // The node's statistics over its repetitions after the warm-ups.
  TimeStats times() const;
  // work() / times().min_seconds (infinity for a time that is not positive).
  double rate() const;
  // The best over repetitions of the sum of the ranks' rates in it; without
  // samples the sum of the ranks' best rates (work / own t_min).
  double best_summed_rate() const;

 private:
  std::size_t warmups_;
  int ranks_ = 0;
  bool missing_ = false;
  double work_ = 0, own_rate_sum_ = 0;
  TimeStats own_max_{0, 0, 0, 0};
  std::vector<double> slowest_, summed_rates_;
};

}  // namespace bws
