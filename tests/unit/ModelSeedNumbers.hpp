#pragma once
// HPCC_FPGA b_eff's measured numbers and the helpers that compare against them,
// shared by the lib/model unit tests.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace bws::test {

// HPCC_FPGA b_eff, "The output of a test run on a single FPGA": MSize, transfer
// (seconds for looplength = 16384 exchanges) and B/s, in table order.
inline constexpr std::array<std::uint64_t, 21> kSeedSizes = {1,    2,    4,     8,     16,    32,     64,
                                                      128,  256,  512,   1024,  2048,  4096,   16384,
                                                      32768, 65536, 131072, 262144, 524288, 1048576, 2097152};
inline constexpr double kSeedLooplength = 16384;
inline constexpr std::array<double, 21> kSeedOneDeviceTransferSeconds = {
    2.02084e-02, 2.02076e-02, 2.02078e-02, 2.02082e-02, 2.02075e-02, 2.02074e-02, 2.02074e-02,
    2.03811e-02, 2.08290e-02, 2.17212e-02, 2.34488e-02, 2.67959e-02, 3.35864e-02, 7.41481e-02,
    1.28218e-01, 2.36447e-01, 4.52898e-01, 8.85840e-01, 1.75159e+00, 3.48309e+00, 6.94615e+00};
inline constexpr std::array<double, 21> kSeedOneDeviceBps = {
    1.62150e+06, 3.24313e+06, 6.48621e+06, 1.29722e+07, 2.59453e+07, 5.18907e+07, 1.03781e+08,
    2.05794e+08, 4.02737e+08, 7.72389e+08, 1.43097e+09, 2.50444e+09, 3.99620e+09, 7.24052e+09,
    8.37438e+09, 9.08229e+09, 9.48329e+09, 9.69693e+09, 9.80814e+09, 9.86474e+09, 9.89317e+09};
// "Scaling the benchmark to 8 FPGAs": B/s column.
inline constexpr std::array<double, 21> kSeedEightDevicesBps = {
    1.21323e+07, 2.42639e+07, 4.85291e+07, 9.70579e+07, 1.94109e+08, 3.88224e+08, 7.76494e+08,
    1.54381e+09, 3.03525e+09, 5.84292e+09, 1.08967e+10, 1.91204e+10, 3.08620e+10, 5.69446e+10,
    6.63023e+10, 7.22459e+10, 7.56337e+10, 7.74485e+10, 7.83910e+10, 7.88720e+10, 7.91180e+10};

template <std::size_t N>
inline double mean(const std::array<double, N>& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return sum / N;
}

// Equal to `expected` as printed to its significant digits: within half a
// unit of its last digit (7.7718e9 -> +-5e4).
inline void expect_to_digits(double actual, double expected, int significant_digits) {
  const double unit = std::pow(10.0, std::floor(std::log10(std::fabs(expected))) - (significant_digits - 1));
  EXPECT_NEAR(actual, expected, unit / 2) << "to " << significant_digits << " significant digits";
}

}  // namespace bws::test
