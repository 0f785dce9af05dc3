#include "core/NodeAggregate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace bws {

void NodeAggregate::add(const std::vector<double>& seconds, const TimeStats& own, double work) {
  const bool first = ranks_++ == 0;
  work_ += work;
  own_rate_sum_ += work / own.min_seconds;
  own_max_.min_seconds = std::max(own_max_.min_seconds, own.min_seconds);
  own_max_.avg_seconds = std::max(own_max_.avg_seconds, own.avg_seconds);
  own_max_.max_seconds = std::max(own_max_.max_seconds, own.max_seconds);
  if (seconds.size() <= warmups_) missing_ = true;
  if (missing_) {
    slowest_.clear();
    summed_rates_.clear();
    return;
  }
  if (first) {
    slowest_ = seconds;
    summed_rates_.assign(seconds.size(), 0.0);
  }
  const std::size_t common = std::min(slowest_.size(), seconds.size());  // the repetitions every rank has
  slowest_.resize(common);
  summed_rates_.resize(common);
  for (std::size_t k = 0; k < common; ++k) {
    slowest_[k] = std::max(slowest_[k], seconds[k]);
    summed_rates_[k] += work / seconds[k];
  }
}

void NodeAggregate::add_row(const Table& t, std::size_t r, const char* work_column) {
  const TimeStats own{t.get_double(r, "t_min"), std::numeric_limits<double>::quiet_NaN(), t.get_double(r, "t_avg"),
                      t.get_double(r, "t_max")};
  add(t.samples(r), own, t.get_double(r, work_column));
}

TimeStats NodeAggregate::times() const {
  if (from_samples()) return time_stats(slowest_, warmups_);
  TimeStats t = own_max_;
  t.median_seconds = std::numeric_limits<double>::quiet_NaN();
  return t;
}

double NodeAggregate::rate() const { return bandwidth_Bps(work_, times().min_seconds); }

double NodeAggregate::best_summed_rate() const {
  if (!from_samples()) return own_rate_sum_;
  const auto counted = summed_rates_.begin() + static_cast<std::ptrdiff_t>(warmups_);
  return *std::max_element(counted, summed_rates_.end());
}

}  // namespace bws
