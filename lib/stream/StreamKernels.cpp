// Compiled with -fno-tree-loop-distribute-patterns (see CMakeLists.txt): gcc
// would otherwise turn the Copy loop into a call to memcpy, whose own
// non-temporal stores for large sizes would change what "normal stores" means.
#include "stream/StreamKernels.hpp"

#include <cstdint>
#include <stdexcept>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace bws::stream {

// ---- normal stores: plain loops; -O3 -march=native vectorises them --------

template <class T>
__attribute__((noinline)) void copy_normal(const T* __restrict a, T* __restrict c, std::size_t begin, std::size_t end) {
  for (std::size_t j = begin; j < end; ++j) c[j] = a[j];
}

template <class T>
__attribute__((noinline)) void scale_normal(T* __restrict b, const T* __restrict c, T s, std::size_t begin,
                                            std::size_t end) {
  for (std::size_t j = begin; j < end; ++j) b[j] = s * c[j];
}

template <class T>
__attribute__((noinline)) void add_normal(const T* __restrict a, const T* __restrict b, T* __restrict c,
                                          std::size_t begin, std::size_t end) {
  for (std::size_t j = begin; j < end; ++j) c[j] = a[j] + b[j];
}

template <class T>
__attribute__((noinline)) void triad_normal(T* __restrict a, const T* __restrict b, const T* __restrict c, T s,
                                            std::size_t begin, std::size_t end) {
  for (std::size_t j = begin; j < end; ++j) a[j] = b[j] + s * c[j];
}

// ---- non-temporal stores ----------------------------------------------------

std::string_view nontemporal_instruction_set() {
#if defined(__AVX512F__)
  return "avx512";
#elif defined(__AVX__)
  return "avx";
#elif defined(__SSE2__)
  return "sse2";
#else
  return "none";
#endif
}

#if defined(__SSE2__)
namespace {

// The widest vector this build may use, chosen at compile time. Loads are
// unaligned (sources need not share the destination's alignment); streaming
// stores need an aligned destination.
template <class T>
struct Vector;

#if defined(__AVX512F__)
template <>
struct Vector<double> {
  using V = __m512d;
  static constexpr std::size_t kLanes = 8;
  static V load(const double* p) { return _mm512_loadu_pd(p); }
  static void stream(double* p, V v) { _mm512_stream_pd(p, v); }
  static V broadcast(double s) { return _mm512_set1_pd(s); }
  static V add(V x, V y) { return _mm512_add_pd(x, y); }
  static V mul(V x, V y) { return _mm512_mul_pd(x, y); }
};
template <>
struct Vector<float> {
  using V = __m512;
  static constexpr std::size_t kLanes = 16;
  static V load(const float* p) { return _mm512_loadu_ps(p); }
  static void stream(float* p, V v) { _mm512_stream_ps(p, v); }
  static V broadcast(float s) { return _mm512_set1_ps(s); }
  static V add(V x, V y) { return _mm512_add_ps(x, y); }
  static V mul(V x, V y) { return _mm512_mul_ps(x, y); }
};
#elif defined(__AVX__)
template <>
struct Vector<double> {
  using V = __m256d;
  static constexpr std::size_t kLanes = 4;
  static V load(const double* p) { return _mm256_loadu_pd(p); }
  static void stream(double* p, V v) { _mm256_stream_pd(p, v); }
  static V broadcast(double s) { return _mm256_set1_pd(s); }
  static V add(V x, V y) { return _mm256_add_pd(x, y); }
  static V mul(V x, V y) { return _mm256_mul_pd(x, y); }
};
template <>
struct Vector<float> {
  using V = __m256;
  static constexpr std::size_t kLanes = 8;
  static V load(const float* p) { return _mm256_loadu_ps(p); }
  static void stream(float* p, V v) { _mm256_stream_ps(p, v); }
  static V broadcast(float s) { return _mm256_set1_ps(s); }
  static V add(V x, V y) { return _mm256_add_ps(x, y); }
  static V mul(V x, V y) { return _mm256_mul_ps(x, y); }
};
#else
template <>
struct Vector<double> {
  using V = __m128d;
  static constexpr std::size_t kLanes = 2;
  static V load(const double* p) { return _mm_loadu_pd(p); }
  static void stream(double* p, V v) { _mm_stream_pd(p, v); }
  static V broadcast(double s) { return _mm_set1_pd(s); }
  static V add(V x, V y) { return _mm_add_pd(x, y); }
  static V mul(V x, V y) { return _mm_mul_pd(x, y); }
};
template <>
struct Vector<float> {
  using V = __m128;
  static constexpr std::size_t kLanes = 4;
  static V load(const float* p) { return _mm_loadu_ps(p); }
  static void stream(float* p, V v) { _mm_stream_ps(p, v); }
  static V broadcast(float s) { return _mm_set1_ps(s); }
  static V add(V x, V y) { return _mm_add_ps(x, y); }
  static V mul(V x, V y) { return _mm_mul_ps(x, y); }
};
#endif

// First index >= begin (and <= end) at which dst is aligned for a streaming store.
template <class T>
std::size_t first_aligned_index(const T* dst, std::size_t begin, std::size_t end) {
  constexpr std::uintptr_t kAlign = Vector<T>::kLanes * sizeof(T);
  std::size_t j = begin;
  while (j < end && reinterpret_cast<std::uintptr_t>(dst + j) % kAlign != 0) ++j;
  return j;
}

// dst[j] = element(j) on the unaligned head and the tail, and
// dst[j..j+lanes) = vector(j) on the aligned body; then a store fence, so the
// streamed lines are globally visible before the timer stops.
template <class T, class Element, class VectorAt>
inline void stream_loop(T* __restrict dst, std::size_t begin, std::size_t end, Element element, VectorAt vector) {
  using W = Vector<T>;
  constexpr std::size_t kLanes = W::kLanes;
  const std::size_t body_begin = first_aligned_index(dst, begin, end);
  std::size_t j = begin;
  for (; j < body_begin; ++j) dst[j] = element(j);
  // Four vectors per pass, all loads before the stores (with AVX-512 four
  // whole lines): more loads in flight than two vectors per pass, measured
  // ~10% more Triad bandwidth on a 2-core Zen 4 VM.
  for (; j + 4 * kLanes <= end; j += 4 * kLanes) {
    const auto v0 = vector(j), v1 = vector(j + kLanes), v2 = vector(j + 2 * kLanes), v3 = vector(j + 3 * kLanes);
    W::stream(dst + j, v0);
    W::stream(dst + j + kLanes, v1);
    W::stream(dst + j + 2 * kLanes, v2);
    W::stream(dst + j + 3 * kLanes, v3);
  }
  for (; j + kLanes <= end; j += kLanes) W::stream(dst + j, vector(j));
  for (; j < end; ++j) dst[j] = element(j);
  _mm_sfence();
}

}  // namespace

template <class T>
__attribute__((noinline)) void copy_nontemporal(const T* __restrict a, T* __restrict c, std::size_t begin,
                                                std::size_t end) {
  using W = Vector<T>;
  stream_loop(
      c, begin, end, [&](std::size_t j) { return a[j]; }, [&](std::size_t j) { return W::load(a + j); });
}

template <class T>
__attribute__((noinline)) void scale_nontemporal(T* __restrict b, const T* __restrict c, T s, std::size_t begin,
                                                 std::size_t end) {
  using W = Vector<T>;
  const auto vs = W::broadcast(s);
  stream_loop(
      b, begin, end, [&](std::size_t j) { return s * c[j]; },
      [&](std::size_t j) { return W::mul(vs, W::load(c + j)); });
}

template <class T>
__attribute__((noinline)) void add_nontemporal(const T* __restrict a, const T* __restrict b, T* __restrict c,
                                               std::size_t begin, std::size_t end) {
  using W = Vector<T>;
  stream_loop(
      c, begin, end, [&](std::size_t j) { return a[j] + b[j]; },
      [&](std::size_t j) { return W::add(W::load(a + j), W::load(b + j)); });
}

template <class T>
__attribute__((noinline)) void triad_nontemporal(T* __restrict a, const T* __restrict b, const T* __restrict c, T s,
                                                 std::size_t begin, std::size_t end) {
  using W = Vector<T>;
  const auto vs = W::broadcast(s);
  stream_loop(
      a, begin, end, [&](std::size_t j) { return b[j] + s * c[j]; },
      [&](std::size_t j) { return W::add(W::load(b + j), W::mul(vs, W::load(c + j))); });
}

#else  // no SSE2: no non-temporal kernels; plan() refuses --stream.stores=nontemporal

namespace {
[[noreturn]] void no_nontemporal() {
  throw std::logic_error("stream: non-temporal kernels are not compiled in on this architecture");
}
}  // namespace

template <class T>
void copy_nontemporal(const T* __restrict, T* __restrict, std::size_t, std::size_t) {
  no_nontemporal();
}
template <class T>
void scale_nontemporal(T* __restrict, const T* __restrict, T, std::size_t, std::size_t) {
  no_nontemporal();
}
template <class T>
void add_nontemporal(const T* __restrict, const T* __restrict, T* __restrict, std::size_t, std::size_t) {
  no_nontemporal();
}
template <class T>
void triad_nontemporal(T* __restrict, const T* __restrict, const T* __restrict, T, std::size_t, std::size_t) {
  no_nontemporal();
}

#endif

// ---- dispatch ---------------------------------------------------------------

template <class T>
void run_stream_kernel(StreamKernel kernel, StoreKind stores, const StreamArrays<T>& x, std::size_t begin,
                       std::size_t end) {
  const T s = static_cast<T>(kStreamScalar);
  const bool nt = stores == StoreKind::Nontemporal;
  switch (kernel) {
    case StreamKernel::Copy:
      return nt ? copy_nontemporal<T>(x.a, x.c, begin, end) : copy_normal<T>(x.a, x.c, begin, end);
    case StreamKernel::Scale:
      return nt ? scale_nontemporal<T>(x.b, x.c, s, begin, end) : scale_normal<T>(x.b, x.c, s, begin, end);
    case StreamKernel::Add:
      return nt ? add_nontemporal<T>(x.a, x.b, x.c, begin, end) : add_normal<T>(x.a, x.b, x.c, begin, end);
    case StreamKernel::Triad:
      return nt ? triad_nontemporal<T>(x.a, x.b, x.c, s, begin, end) : triad_normal<T>(x.a, x.b, x.c, s, begin, end);
  }
}

#define BWS_STREAM_INSTANTIATE(T)                                                                                      \
  template void copy_normal<T>(const T* __restrict, T* __restrict, std::size_t, std::size_t);                          \
  template void scale_normal<T>(T* __restrict, const T* __restrict, T, std::size_t, std::size_t);                      \
  template void add_normal<T>(const T* __restrict, const T* __restrict, T* __restrict, std::size_t, std::size_t);      \
  template void triad_normal<T>(T* __restrict, const T* __restrict, const T* __restrict, T, std::size_t, std::size_t); \
  template void copy_nontemporal<T>(const T* __restrict, T* __restrict, std::size_t, std::size_t);                     \
  template void scale_nontemporal<T>(T* __restrict, const T* __restrict, T, std::size_t, std::size_t);                 \
  template void add_nontemporal<T>(const T* __restrict, const T* __restrict, T* __restrict, std::size_t, std::size_t); \
  template void triad_nontemporal<T>(T* __restrict, const T* __restrict, const T* __restrict, T, std::size_t,          \
                                     std::size_t);                                                                     \
  template void run_stream_kernel<T>(StreamKernel, StoreKind, const StreamArrays<T>&, std::size_t, std::size_t);

BWS_STREAM_INSTANTIATE(double)
BWS_STREAM_INSTANTIATE(float)
#undef BWS_STREAM_INSTANTIATE

}  // namespace bws::stream
