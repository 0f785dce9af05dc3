#pragma once
// STREAM 5.10's checkSTREAMresults: replay the initialisation and the reps
// repetitions of Copy, Scale, Add, Triad on three scalars, then compare every
// element with them: the average absolute error of an array divided by its
// expected value must stay below STREAM's epsilon (1e-13 double, 1e-6 float).
// Pure functions: they work on any plain array, so a test can corrupt one
// element and see it named.
#include <array>
#include <cstddef>

#include "stream/StreamKernelTable.hpp"

namespace bws::stream {

// The value every element of a, b and c holds after the run.
struct StreamExpected {
  double a = 0, b = 0, c = 0;
  double of(StreamArray array) const { return array == StreamArray::A ? a : array == StreamArray::B ? b : c; }
};

// Replays in T's arithmetic, as STREAM does in STREAM_TYPE: a=1, b=2, c=0;
// a=2a; then reps x (c=a; b=s*c; c=a+b; a=b+s*c) with s=3.
template <class T>
StreamExpected stream_expected_values(int reps);

// STREAM 5.10's limits on the average relative error.
template <class T>
constexpr double stream_error_limit() {
  return sizeof(T) == sizeof(float) ? 1e-6 : 1e-13;
}

// The one validation rule of both STREAM backends (the CPU's threads and
// the OpenCL device, as in HPCC_FPGA): per array, the average relative error
// avg |x - expected| / |expected| must not exceed the limit, which is
// STREAM 5.10's for the type (1e-13 double, 1e-6 float) unless
// --stream.validate-epsilon sets one value for both types and backends.
// HPCC_FPGA's device STREAM used the machine epsilon (2.2e-16, 1.2e-7):
// stricter than the CPU's for the same arrays, so one device could fail
// where the same bits pass on a CPU; STREAM 5.10's is the reference both
// are compared with.
struct StreamValidationRule {
  double epsilon_override = 0;  // > 0: this limit for every type; 0: STREAM 5.10's
  template <class T>
  double limit() const {
    return epsilon_override > 0 ? epsilon_override : stream_error_limit<T>();
  }
};
inline constexpr const char* kStreamValidationRuleText =
    "avg |x-expected|/|expected| <= STREAM 5.10's limit or --stream.validate-epsilon";

// Sums of |element - expected| over a range, per array; partial sums of
// threads add up. An element equal to its expected value adds 0, also when
// both are infinite (the values grow 15x per repetition and overflow float
// after 32 repetitions, double after 262).
struct StreamErrorSums {
  std::array<double, 3> abs_error{};  // indexed by StreamArray
  StreamErrorSums& operator+=(const StreamErrorSums& other);
};

template <class T>
StreamErrorSums sum_stream_errors(const T* a, const T* b, const T* c, std::size_t begin, std::size_t end,
                                  const StreamExpected& expected);

struct ArrayValidation {
  StreamArray array = StreamArray::A;
  double expected = 0;       // the value every element should hold
  double avg_abs_error = 0;  // sum |x - expected| / n
  double avg_rel_error = 0;  // avg_abs_error / |expected|; +inf for non-finite errors
  double limit = 0;          // epsilon of the type
  bool passed = false;
};

struct StreamValidation {
  std::array<ArrayValidation, 3> arrays;  // a, b, c
  bool passed() const { return arrays[0].passed && arrays[1].passed && arrays[2].passed; }
  const ArrayValidation& of(StreamArray array) const { return arrays[static_cast<std::size_t>(array)]; }
};

// Turns error sums over all n elements into the verdict per array.
StreamValidation judge_stream_errors(const StreamErrorSums& sums, std::size_t n, const StreamExpected& expected,
                                     double limit);

// What both backends call: the error sums over all n elements after reps
// repetitions (in T's arithmetic), judged by `rule`.
template <class T>
StreamValidation judge_stream_run(const StreamErrorSums& sums, std::size_t n, int reps,
                                  const StreamValidationRule& rule);

// The whole check on plain arrays of n elements after reps repetitions.
template <class T>
StreamValidation validate_stream_arrays(const T* a, const T* b, const T* c, std::size_t n, int reps,
                                        const StreamValidationRule& rule = {});

}  // namespace bws::stream
