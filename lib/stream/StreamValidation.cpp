#include "stream/StreamValidation.hpp"

#include <cmath>
#include <limits>

namespace bws::stream {

template <class T>
StreamExpected stream_expected_values(int reps) {
  T aj = 1, bj = 2, cj = 0;
  const T s = static_cast<T>(kStreamScalar);
  aj = T(2) * aj;  // the timing-granularity pass of STREAM 5.10
  for (int k = 0; k < reps; ++k) {
    cj = aj;
    bj = s * cj;
    cj = aj + bj;
    aj = bj + s * cj;
  }
  return {static_cast<double>(aj), static_cast<double>(bj), static_cast<double>(cj)};
}

StreamErrorSums& StreamErrorSums::operator+=(const StreamErrorSums& other) {
  for (std::size_t i = 0; i < abs_error.size(); ++i) abs_error[i] += other.abs_error[i];
  return *this;
}

namespace {

template <class T>
double sum_abs_error(const T* x, std::size_t begin, std::size_t end, T expected) {
  double sum = 0;  // in double: a float sum would lose small errors over 10^8 elements
  for (std::size_t j = begin; j < end; ++j)
    if (x[j] != expected) sum += std::fabs(static_cast<double>(x[j]) - static_cast<double>(expected));
  return sum;
}

}  // namespace

template <class T>
StreamErrorSums sum_stream_errors(const T* a, const T* b, const T* c, std::size_t begin, std::size_t end,
                                  const StreamExpected& expected) {
  StreamErrorSums sums;
  sums.abs_error[0] = sum_abs_error(a, begin, end, static_cast<T>(expected.a));
  sums.abs_error[1] = sum_abs_error(b, begin, end, static_cast<T>(expected.b));
  sums.abs_error[2] = sum_abs_error(c, begin, end, static_cast<T>(expected.c));
  return sums;
}

StreamValidation judge_stream_errors(const StreamErrorSums& sums, std::size_t n, const StreamExpected& expected,
                                     double limit) {
  StreamValidation v;
  for (std::size_t i = 0; i < 3; ++i) {
    ArrayValidation& r = v.arrays[i];
    r.array = static_cast<StreamArray>(i);
    r.expected = expected.of(r.array);
    r.limit = limit;
    const double sum = sums.abs_error[i];
    r.avg_abs_error = n > 0 ? sum / static_cast<double>(n) : 0;
    if (sum == 0)
      r.avg_rel_error = 0;
    else if (std::isfinite(sum) && std::isfinite(r.expected) && r.expected != 0)
      r.avg_rel_error = r.avg_abs_error / std::fabs(r.expected);
    else  // an infinite or NaN difference, or an expected value we cannot divide by
      r.avg_rel_error = std::numeric_limits<double>::infinity();
    r.passed = r.avg_rel_error <= limit;
  }
  return v;
}

template <class T>
StreamValidation judge_stream_run(const StreamErrorSums& sums, std::size_t n, int reps,
                                  const StreamValidationRule& rule) {
  return judge_stream_errors(sums, n, stream_expected_values<T>(reps), rule.limit<T>());
}

template <class T>
StreamValidation validate_stream_arrays(const T* a, const T* b, const T* c, std::size_t n, int reps,
                                        const StreamValidationRule& rule) {
  const StreamExpected expected = stream_expected_values<T>(reps);
  return judge_stream_run<T>(sum_stream_errors(a, b, c, 0, n, expected), n, reps, rule);
}

template StreamExpected stream_expected_values<double>(int);
template StreamExpected stream_expected_values<float>(int);
template StreamErrorSums sum_stream_errors<double>(const double*, const double*, const double*, std::size_t,
                                                   std::size_t, const StreamExpected&);
template StreamErrorSums sum_stream_errors<float>(const float*, const float*, const float*, std::size_t, std::size_t,
                                                  const StreamExpected&);
template StreamValidation judge_stream_run<double>(const StreamErrorSums&, std::size_t, int, const StreamValidationRule&);
template StreamValidation judge_stream_run<float>(const StreamErrorSums&, std::size_t, int, const StreamValidationRule&);
template StreamValidation validate_stream_arrays<double>(const double*, const double*, const double*, std::size_t, int,
                                                         const StreamValidationRule&);
template StreamValidation validate_stream_arrays<float>(const float*, const float*, const float*, std::size_t, int,
                                                        const StreamValidationRule&);

}  // namespace bws::stream
