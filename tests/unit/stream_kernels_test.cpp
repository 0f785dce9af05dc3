// STREAM (lib/stream): byte accounting, the kernels, validation and the
// buffer layout.
#include <gtest/gtest.h>

#include "TestSupport.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/Config.hpp"
#include "core/Errors.hpp"
#include "core/ResultColumns.hpp"
#include "core/RunContext.hpp"
#include "stream/StreamBenchmark.hpp"
#include "stream/StreamKernelTable.hpp"
#include "stream/StreamKernels.hpp"
#include "stream/StreamLayout.hpp"
#include "stream/StreamPlan.hpp"
#include "stream/StreamTables.hpp"
#include "stream/StreamValidation.hpp"
#include "topology/PinningPlan.hpp"
#include "topology/Team.hpp"
#include "topology/Topology.hpp"

namespace bws::stream {
namespace {

// ---- byte accounting ----

TEST(StreamBytes, WeightsTimesElementsTimesElementSize) {
  EXPECT_EQ(kernel_bytes(StreamKernel::Copy, 1000, 8), 2u * 1000 * 8);
  EXPECT_EQ(kernel_bytes(StreamKernel::Scale, 1000, 8), 2u * 1000 * 8);
  EXPECT_EQ(kernel_bytes(StreamKernel::Add, 1000, 8), 3u * 1000 * 8);
  EXPECT_EQ(kernel_bytes(StreamKernel::Triad, 1000, 8), 3u * 1000 * 8);
  EXPECT_EQ(kernel_bytes(StreamKernel::Triad, 10000000, 4), 3u * 10000000 * 4);
  EXPECT_EQ(kernel_bytes(StreamKernel::Copy, 1ull << 32, 8), 2ull * (1ull << 32) * 8);  // no 32-bit overflow
}

TEST(StreamBytes, TableIsStreamOrderAndCountsEachArrayOnce) {
  const std::vector<std::string> labels = {"Copy", "Scale", "Add", "Triad"};
  for (std::size_t i = 0; i < kStreamKernels.size(); ++i) {
    EXPECT_EQ(kStreamKernels[i].label, labels[i]);
    EXPECT_EQ(static_cast<std::size_t>(kStreamKernels[i].kernel), i);
    EXPECT_EQ(kStreamKernels[i].byte_weight, kStreamKernels[i].arrays_read + 1);
  }
  EXPECT_EQ(kernel_spec(StreamKernel::Copy).written, StreamArray::C);
  EXPECT_EQ(kernel_spec(StreamKernel::Scale).written, StreamArray::B);
  EXPECT_EQ(kernel_spec(StreamKernel::Add).written, StreamArray::C);
  EXPECT_EQ(kernel_spec(StreamKernel::Triad).written, StreamArray::A);
}

// ---- kernels ----

template <class T>
class StreamKernelTest : public ::testing::Test {};
using ElementTypes = ::testing::Types<double, float>;
TYPED_TEST_SUITE(StreamKernelTest, ElementTypes);

// Runs `kernel` on [begin, end) of arrays whose bases are `misalign` elements
// past a 64-byte boundary, and checks every element: inside the range the
// kernel's value, outside it untouched.
template <class T>
void check_kernel(StreamKernel kernel, StoreKind stores, std::size_t misalign, std::size_t begin, std::size_t end) {
  const std::size_t n = end + 9;
  // Each array gets its own misalignment so source and destination differ.
  std::vector<T> storage_a(n + 64), storage_b(n + 64), storage_c(n + 64);
  auto aligned = [](std::vector<T>& v, std::size_t skew) {
    auto p = reinterpret_cast<std::uintptr_t>(v.data());
    p = (p + 63) / 64 * 64;
    return reinterpret_cast<T*>(p) + skew;
  };
  StreamArrays<T> x{aligned(storage_a, misalign), aligned(storage_b, (misalign + 1) % 7),
                    aligned(storage_c, (misalign + 3) % 5)};
  for (std::size_t j = 0; j < n; ++j) {
    x.a[j] = static_cast<T>(j % 97 + 1);
    x.b[j] = static_cast<T>(j % 31 + 2);
    x.c[j] = static_cast<T>(j % 13 + 3);
  }
  const std::vector<T> a0(x.a, x.a + n), b0(x.b, x.b + n), c0(x.c, x.c + n);
  run_stream_kernel<T>(kernel, stores, x, begin, end);
  const T s = static_cast<T>(kStreamScalar);
  for (std::size_t j = 0; j < n; ++j) {
    const bool in = j >= begin && j < end;
    T ea = a0[j], eb = b0[j], ec = c0[j];
    if (in) {
      switch (kernel) {
        case StreamKernel::Copy:
          ec = a0[j];
          break;
        case StreamKernel::Scale:
          eb = s * c0[j];
          break;
        case StreamKernel::Add:
          ec = a0[j] + b0[j];
          break;
        case StreamKernel::Triad:
          ea = b0[j] + s * c0[j];
          break;
      }
    }
    // Small integers: exact in both types, with or without FMA.
    ASSERT_EQ(x.a[j], ea) << kernel_spec(kernel).label << " " << store_name(stores) << " a[" << j << "]";
    ASSERT_EQ(x.b[j], eb) << kernel_spec(kernel).label << " " << store_name(stores) << " b[" << j << "]";
    ASSERT_EQ(x.c[j], ec) << kernel_spec(kernel).label << " " << store_name(stores) << " c[" << j << "]";
  }
}

TYPED_TEST(StreamKernelTest, AllKernelsBothStoresOddLengthsAndMisalignedStarts) {
  std::vector<StoreKind> stores = {StoreKind::Normal};
  if (kHaveNontemporalKernels) stores.push_back(StoreKind::Nontemporal);
  const std::vector<std::pair<std::size_t, std::size_t>> ranges = {{0, 0},  {0, 1},    {3, 4},     {0, 7},   {1, 18},
                                                                   {5, 38}, {0, 1000}, {13, 1037}, {7, 4103}};
  for (StoreKind st : stores)
    for (const StreamKernelSpec& k : kStreamKernels)
      for (std::size_t misalign : {0, 1, 3})
        for (const auto& [begin, end] : ranges) check_kernel<TypeParam>(k.kernel, st, misalign, begin, end);
}

TEST(StreamKernels, NontemporalInstructionSetIsNamed) {
  if (kHaveNontemporalKernels)
    EXPECT_NE(nontemporal_instruction_set(), "none");
  else
    EXPECT_EQ(nontemporal_instruction_set(), "none");
}

// ---- validation ----

TEST(StreamValidation, ReplayOfTwoRepetitions) {
  // a=2; then (c=a, b=3c, c=a+b, a=b+3c) twice: (a,b,c) = (30,6,8), (450,90,120).
  const StreamExpected d = stream_expected_values<double>(2);
  EXPECT_EQ(d.a, 450);
  EXPECT_EQ(d.b, 90);
  EXPECT_EQ(d.c, 120);
  const StreamExpected f = stream_expected_values<float>(2);
  EXPECT_EQ(f.a, 450);
  EXPECT_EQ(f.b, 90);
  EXPECT_EQ(f.c, 120);
}

TEST(StreamValidation, ReplayOfTwentyRepetitions) {
  // Each repetition multiplies a by 15; b = 3 and c = 4 times the a before it.
  const long double a19 = 2.0L * std::pow(15.0L, 19);
  const StreamExpected d = stream_expected_values<double>(20);
  EXPECT_NEAR(d.a / static_cast<double>(15 * a19), 1.0, 1e-15);
  EXPECT_NEAR(d.b / static_cast<double>(3 * a19), 1.0, 1e-15);
  EXPECT_NEAR(d.c / static_cast<double>(4 * a19), 1.0, 1e-15);
  const StreamExpected f = stream_expected_values<float>(20);
  EXPECT_NEAR(f.a / static_cast<double>(15 * a19), 1.0, 1e-6);
  EXPECT_NEAR(f.b / static_cast<double>(3 * a19), 1.0, 1e-6);
  EXPECT_NEAR(f.c / static_cast<double>(4 * a19), 1.0, 1e-6);
}

TEST(StreamValidation, LimitsAreStream510Epsilons) {
  EXPECT_EQ(stream_error_limit<double>(), 1e-13);
  EXPECT_EQ(stream_error_limit<float>(), 1e-6);
}

template <class T>
class StreamValidationTest : public ::testing::Test {};
TYPED_TEST_SUITE(StreamValidationTest, ElementTypes);

TYPED_TEST(StreamValidationTest, CorrectArraysPassAndOneCorruptElementIsNamed) {
  using T = TypeParam;
  constexpr std::size_t n = 1000;
  constexpr int ntimes = 20;
  const StreamExpected e = stream_expected_values<T>(ntimes);
  for (StreamArray bad : {StreamArray::A, StreamArray::B, StreamArray::C}) {
    std::vector<T> a(n, static_cast<T>(e.a)), b(n, static_cast<T>(e.b)), c(n, static_cast<T>(e.c));
    const StreamValidation good = validate_stream_arrays(a.data(), b.data(), c.data(), n, ntimes);
    EXPECT_TRUE(good.passed());
    for (const ArrayValidation& v : good.arrays) EXPECT_EQ(v.avg_rel_error, 0);

    std::vector<T>& target = bad == StreamArray::A ? a : bad == StreamArray::B ? b : c;
    target[417] = static_cast<T>(e.of(bad) * 1.5);  // 50% off in one element of 1000
    const StreamValidation v = validate_stream_arrays(a.data(), b.data(), c.data(), n, ntimes);
    EXPECT_FALSE(v.passed());
    for (const ArrayValidation& r : v.arrays) {
      if (r.array == bad) {
        EXPECT_FALSE(r.passed) << array_letter(bad);
        EXPECT_NEAR(r.avg_rel_error, 0.5 / n, 0.5 / n * 1e-5) << array_letter(bad);
        EXPECT_EQ(r.limit, stream_error_limit<T>());
        EXPECT_DOUBLE_EQ(r.expected, e.of(bad));
      } else {
        EXPECT_TRUE(r.passed) << array_letter(r.array);
      }
    }
  }
}

TEST(StreamValidation, NonFiniteValuesFailAndOverflowedExpectationsStillCheck) {
  // Float overflows after 33 repetitions: expected values are +inf, and an
  // element that kept a finite value is caught instead of dividing inf by inf.
  const StreamExpected e = stream_expected_values<float>(40);
  ASSERT_TRUE(std::isinf(e.a));
  std::vector<float> a(100, INFINITY), b(100, INFINITY), c(100, INFINITY);
  EXPECT_TRUE(validate_stream_arrays(a.data(), b.data(), c.data(), 100, 40).passed());
  b[3] = 1.0f;
  EXPECT_FALSE(validate_stream_arrays(a.data(), b.data(), c.data(), 100, 40).of(StreamArray::B).passed);

  const StreamExpected d = stream_expected_values<double>(3);
  std::vector<double> x(10, d.a), y(10, d.b), z(10, d.c);
  z[0] = NAN;
  const StreamValidation v = validate_stream_arrays(x.data(), y.data(), z.data(), 10, 3);
  EXPECT_FALSE(v.of(StreamArray::C).passed);
  EXPECT_TRUE(std::isinf(v.of(StreamArray::C).avg_rel_error));
}

// ---- layout ----

TEST(StreamLayout, ArraysAreLineAlignedAndOffsetWithinTheirPages) {
  const StreamLayout l = make_stream_layout(1000003, 8, 256);
  EXPECT_EQ(l.array_bytes, 8000024u);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(l.array_begin_bytes[k] % 64, 0u);
    EXPECT_EQ(l.array_begin_bytes[k] % kPageBytes, k * 256);
  }
  EXPECT_GE(l.array_begin_bytes[1], l.array_begin_bytes[0] + l.array_bytes);
  EXPECT_GE(l.array_begin_bytes[2], l.array_begin_bytes[1] + l.array_bytes);
  EXPECT_EQ(l.total_bytes, l.array_begin_bytes[2] + l.array_bytes);
  EXPECT_EQ(make_stream_layout(1024, 8, 0).array_begin_bytes[2] % kPageBytes, 0u);
}

}  // namespace
}  // namespace bws::stream
