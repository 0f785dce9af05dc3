#include "roofline/Gemm.hpp"

#include <stdexcept>

#if defined(BWS_HAVE_OPENBLAS)
#include <cblas.h>
#endif

namespace bws::roofline {
namespace {

std::int64_t a_entry(std::size_t i, std::size_t k) { return static_cast<std::int64_t>((i + 2 * k) % 7) - 3; }
std::int64_t b_entry(std::size_t k, std::size_t j) { return static_cast<std::int64_t>((3 * k + j) % 5) - 2; }

template <class T>
void fill(std::size_t n, T* a, T* b) {
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k) {
      a[i * n + k] = static_cast<T>(a_entry(i, k));
      b[i * n + k] = static_cast<T>(b_entry(i, k));
    }
}

template <class T>
int wrong_entries(std::size_t n, const T* c) {
  int wrong = 0;
  for (std::size_t i : {std::size_t{0}, n / 2, n - 1})
    for (std::size_t j : {std::size_t{0}, n / 3, n - 1}) {
      std::int64_t exact = 0;
      for (std::size_t k = 0; k < n; ++k) exact += a_entry(i, k) * b_entry(k, j);
      if (c[i * n + j] != static_cast<T>(exact)) ++wrong;
    }
  return wrong;
}

}  // namespace

bool blas_available() {
#if defined(BWS_HAVE_OPENBLAS)
  return true;
#else
  return false;
#endif
}

std::string blas_description() {
#if defined(BWS_HAVE_OPENBLAS)
  std::string text = openblas_get_config();
  const std::string core = openblas_get_corename();
  if (text.find(core) == std::string::npos) text += " " + core;
  return text;
#else
  return "none";
#endif
}

void blas_use_calling_thread_only() {
#if defined(BWS_HAVE_OPENBLAS)
  openblas_set_num_threads(1);
#endif
}

std::uint64_t matrix_bytes(std::uint64_t n, StreamType type) { return n * n * element_bytes(type); }

void fill_gemm_inputs(StreamType type, std::size_t n, void* a, void* b) {
  if (type == StreamType::Double)
    fill(n, static_cast<double*>(a), static_cast<double*>(b));
  else
    fill(n, static_cast<float*>(a), static_cast<float*>(b));
}

void gemm(StreamType type, std::size_t n, const void* a, const void* b, void* c) {
#if defined(BWS_HAVE_OPENBLAS)
  const auto N = static_cast<blasint>(n);
  if (type == StreamType::Double)
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1.0, static_cast<const double*>(a), N,
                static_cast<const double*>(b), N, 0.0, static_cast<double*>(c), N);
  else
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1.0f, static_cast<const float*>(a), N,
                static_cast<const float*>(b), N, 0.0f, static_cast<float*>(c), N);
#else
  (void)type, (void)n, (void)a, (void)b, (void)c;
  throw std::logic_error("roofline: this build has no BLAS");
#endif
}

int wrong_gemm_entries(StreamType type, std::size_t n, const void* c) {
  return type == StreamType::Double ? wrong_entries(n, static_cast<const double*>(c))
                                    : wrong_entries(n, static_cast<const float*>(c));
}

}  // namespace bws::roofline
