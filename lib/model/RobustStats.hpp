#pragma once
// Median and median absolute deviation: the robust centre and spread the
// node flags compare against. A few slow nodes move neither, unlike the
// mean and standard deviation. For normally distributed values
// 1.4826 * MAD estimates the standard deviation.
#include <span>

#include "core/SampleStats.hpp"

namespace bws::model {

inline constexpr double kMadToSigma = 1.4826;

using bws::median_of;  // core/SampleStats.hpp: NaN for none
// median(|v - median|); NaN for none.
double median_absolute_deviation(std::span<const double> values);
// (value - median) / (1.4826 * MAD); +-inf when MAD is 0 and value differs
// from the median, 0 when it equals it.
double robust_z(double value, double median, double mad);

}  // namespace bws::model
