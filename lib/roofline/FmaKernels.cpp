#include "roofline/FmaKernels.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define BWS_X86_KERNELS 1
#else
#define BWS_X86_KERNELS 0
#endif

namespace bws::roofline {
namespace {

// Read through volatile at every call: the compiler never sees the
// constants, so it cannot fold or shorten the recurrence.
volatile double g_multiplier = 1023.0 / 1024.0;  // a
volatile double g_addend = 1.0 / 2048.0;         // b = 0.5 * (1 - a)

double start_value(int accumulator) { return 1.0 + accumulator / 16.0; }

template <class T>
double worst_lane_deviation(const T* lanes, int count) {
  double worst = 0;
  for (int i = 0; i < count; ++i) {
    const double d = std::fabs(static_cast<double>(lanes[i]) - kFmaFixedPoint) / kFmaFixedPoint;
    worst = std::isfinite(d) ? std::max(worst, d) : HUGE_VAL;
  }
  return worst;
}

// One kernel per (instruction set, type): the accumulators live in
// registers (K fits the register file with a and b beside them), the inner
// loop is fully unrolled so each iteration issues K independent updates.
// VEC: vector type, LANES: elements, K: accumulators, SET1/UPDATE/STORE:
// the intrinsics; ELEM: the element type.
#define BWS_FMA_KERNEL(NAME, TARGET, VEC, ELEM, LANES, K, SET1, UPDATE, STORE)            \
  TARGET double NAME(std::uint64_t iterations) {                                          \
    const VEC a = SET1(static_cast<ELEM>(g_multiplier));                                  \
    const VEC b = SET1(static_cast<ELEM>(g_addend));                                      \
    VEC x[K];                                                                             \
    for (int k = 0; k < K; ++k) x[k] = SET1(static_cast<ELEM>(start_value(k)));           \
    for (std::uint64_t i = 0; i < iterations; ++i) {                                      \
      _Pragma("GCC unroll 32") for (int k = 0; k < K; ++k) x[k] = UPDATE(x[k], a, b);     \
    }                                                                                     \
    alignas(64) ELEM lanes[K * LANES];                                                    \
    for (int k = 0; k < K; ++k) STORE(lanes + k * LANES, x[k]);                           \
    return worst_lane_deviation(lanes, K * LANES);                                        \
  }

constexpr int kAccumulatorsAvx512 = 24;  // of 32 zmm registers; >= latency 4 x 2 pipes
constexpr int kAccumulators16Regs = 12;  // of 16 ymm/xmm registers; >= latency 5 x 2 pipes
constexpr int kAccumulatorsScalar = 8;

#if BWS_X86_KERNELS
#define BWS_AVX512 __attribute__((target("avx512f")))
#define BWS_AVXFMA __attribute__((target("avx,fma")))
#define BWS_AVX __attribute__((target("avx")))
#define BWS_SSE2 __attribute__((target("sse2")))

#define BWS_MULADD_256D(x, a, b) _mm256_add_pd(_mm256_mul_pd(x, a), b)
#define BWS_MULADD_256S(x, a, b) _mm256_add_ps(_mm256_mul_ps(x, a), b)
#define BWS_MULADD_128D(x, a, b) _mm_add_pd(_mm_mul_pd(x, a), b)
#define BWS_MULADD_128S(x, a, b) _mm_add_ps(_mm_mul_ps(x, a), b)

BWS_FMA_KERNEL(fma_avx512_double, BWS_AVX512, __m512d, double, 8, kAccumulatorsAvx512, _mm512_set1_pd,
               _mm512_fmadd_pd, _mm512_store_pd)
BWS_FMA_KERNEL(fma_avx512_float, BWS_AVX512, __m512, float, 16, kAccumulatorsAvx512, _mm512_set1_ps,
               _mm512_fmadd_ps, _mm512_store_ps)
BWS_FMA_KERNEL(fma_avxfma_double, BWS_AVXFMA, __m256d, double, 4, kAccumulators16Regs, _mm256_set1_pd,
               _mm256_fmadd_pd, _mm256_store_pd)
BWS_FMA_KERNEL(fma_avxfma_float, BWS_AVXFMA, __m256, float, 8, kAccumulators16Regs, _mm256_set1_ps,
               _mm256_fmadd_ps, _mm256_store_ps)
BWS_FMA_KERNEL(fma_avx_double, BWS_AVX, __m256d, double, 4, kAccumulators16Regs, _mm256_set1_pd, BWS_MULADD_256D,
               _mm256_store_pd)
BWS_FMA_KERNEL(fma_avx_float, BWS_AVX, __m256, float, 8, kAccumulators16Regs, _mm256_set1_ps, BWS_MULADD_256S,
               _mm256_store_ps)
BWS_FMA_KERNEL(fma_sse2_double, BWS_SSE2, __m128d, double, 2, kAccumulators16Regs, _mm_set1_pd, BWS_MULADD_128D,
               _mm_store_pd)
BWS_FMA_KERNEL(fma_sse2_float, BWS_SSE2, __m128, float, 4, kAccumulators16Regs, _mm_set1_ps, BWS_MULADD_128S,
               _mm_store_ps)
#endif

// Portable: one element per "vector"; the compiler may fuse or not, the
// count (2 FLOP per update) is the same.
#define BWS_SCALAR_SET1(v) (v)
#define BWS_SCALAR_UPDATE(x, a, b) ((x) * (a) + (b))
#define BWS_SCALAR_STORE(p, v) (*(p) = (v))
#define BWS_NO_TARGET
BWS_FMA_KERNEL(fma_scalar_double, BWS_NO_TARGET, double, double, 1, kAccumulatorsScalar, BWS_SCALAR_SET1,
               BWS_SCALAR_UPDATE, BWS_SCALAR_STORE)
BWS_FMA_KERNEL(fma_scalar_float, BWS_NO_TARGET, float, float, 1, kAccumulatorsScalar, BWS_SCALAR_SET1,
               BWS_SCALAR_UPDATE, BWS_SCALAR_STORE)

}  // namespace

std::string_view isa_name(VectorIsa isa) {
  switch (isa) {
    case VectorIsa::Avx512: return "avx512f";
    case VectorIsa::AvxFma: return "avx-fma";
    case VectorIsa::Avx: return "avx";
    case VectorIsa::Sse2: return "sse2";
    case VectorIsa::Scalar: return "scalar";
  }
  return "?";
}

std::optional<VectorIsa> isa_from_name(std::string_view name) {
  for (VectorIsa isa : kIsasWidestFirst)
    if (isa_name(isa) == name) return isa;
  return std::nullopt;
}

bool isa_supported(VectorIsa isa) {
#if BWS_X86_KERNELS
  // libgcc's CPU model reads CPUID and, for AVX and AVX-512, XGETBV (the OS
  // saves the registers) before it reports a feature.
  __builtin_cpu_init();
  switch (isa) {
    case VectorIsa::Avx512: return __builtin_cpu_supports("avx512f");
    case VectorIsa::AvxFma: return __builtin_cpu_supports("avx") && __builtin_cpu_supports("fma");
    case VectorIsa::Avx: return __builtin_cpu_supports("avx");
    case VectorIsa::Sse2: return __builtin_cpu_supports("sse2");
    case VectorIsa::Scalar: return true;
  }
  return false;
#else
  return isa == VectorIsa::Scalar;
#endif
}

VectorIsa widest_supported_isa() {
  for (VectorIsa isa : kIsasWidestFirst)
    if (isa_supported(isa)) return isa;
  return VectorIsa::Scalar;
}

std::vector<VectorIsa> compiled_isas() {
#if BWS_X86_KERNELS
  return {std::begin(kIsasWidestFirst), std::end(kIsasWidestFirst)};
#else
  return {VectorIsa::Scalar};
#endif
}

std::vector<VectorIsa> supported_isas() {
  std::vector<VectorIsa> isas;
  for (VectorIsa isa : kIsasWidestFirst)
    if (isa_supported(isa)) isas.push_back(isa);
  return isas;
}

FmaKernelShape fma_kernel_shape(VectorIsa isa, StreamType type) {
  const int per_16_bytes = type == StreamType::Double ? 2 : 4;  // elements in 128 bits
  switch (isa) {
    case VectorIsa::Avx512: return {kAccumulatorsAvx512, 4 * per_16_bytes, true};
    case VectorIsa::AvxFma: return {kAccumulators16Regs, 2 * per_16_bytes, true};
    case VectorIsa::Avx: return {kAccumulators16Regs, 2 * per_16_bytes, false};
    case VectorIsa::Sse2: return {kAccumulators16Regs, per_16_bytes, false};
    case VectorIsa::Scalar: return {kAccumulatorsScalar, 1, false};
  }
  return {};
}

std::uint64_t fma_flops_per_iteration(VectorIsa isa, StreamType type) {
  const FmaKernelShape s = fma_kernel_shape(isa, type);
  // accumulators x lanes x (1 multiply + 1 add)
  return static_cast<std::uint64_t>(s.accumulators) * static_cast<std::uint64_t>(s.lanes) * 2;
}

double run_fma_kernel(VectorIsa isa, StreamType type, std::uint64_t iterations) {
  if (!isa_supported(isa))
    throw std::logic_error("roofline: the " + std::string(isa_name(isa)) + " kernel is not supported here");
  const bool d = type == StreamType::Double;
  switch (isa) {
#if BWS_X86_KERNELS
    case VectorIsa::Avx512: return d ? fma_avx512_double(iterations) : fma_avx512_float(iterations);
    case VectorIsa::AvxFma: return d ? fma_avxfma_double(iterations) : fma_avxfma_float(iterations);
    case VectorIsa::Avx: return d ? fma_avx_double(iterations) : fma_avx_float(iterations);
    case VectorIsa::Sse2: return d ? fma_sse2_double(iterations) : fma_sse2_float(iterations);
#endif
    case VectorIsa::Scalar: return d ? fma_scalar_double(iterations) : fma_scalar_float(iterations);
    default: break;
  }
  throw std::logic_error("roofline: no kernel for " + std::string(isa_name(isa)));
}

}  // namespace bws::roofline
