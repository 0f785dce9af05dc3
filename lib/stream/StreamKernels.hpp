#pragma once
// The STREAM 5.10 kernels on [begin, end) of three arrays, in two store
// variants: plain loops the compiler vectorises (normal stores), and x86
// intrinsics with non-temporal stores. Each is out of line (StreamKernels.cpp)
// so the timed call cannot be hoisted, merged or removed by the caller.
#include <cstddef>
#include <string_view>

#include "stream/StreamKernelTable.hpp"
#include "stream/StreamTypes.hpp"

namespace bws::stream {

// Non-temporal kernels exist where the build targets x86 with SSE2 or better.
#if defined(__SSE2__)
inline constexpr bool kHaveNontemporalKernels = true;
#else
inline constexpr bool kHaveNontemporalKernels = false;
#endif

// "avx512", "avx" or "sse2": the vector width the non-temporal kernels were
// compiled for; "none" without them.
std::string_view nontemporal_instruction_set();

template <class T>
struct StreamArrays {
  T* a = nullptr;
  T* b = nullptr;
  T* c = nullptr;
};

// Normal stores. s is STREAM's scalar (3).
template <class T>
void copy_normal(const T* __restrict a, T* __restrict c, std::size_t begin, std::size_t end);
template <class T>
void scale_normal(T* __restrict b, const T* __restrict c, T s, std::size_t begin, std::size_t end);
template <class T>
void add_normal(const T* __restrict a, const T* __restrict b, T* __restrict c, std::size_t begin, std::size_t end);
template <class T>
void triad_normal(T* __restrict a, const T* __restrict b, const T* __restrict c, T s, std::size_t begin,
                  std::size_t end);

// Non-temporal stores: any alignment and length (scalar head until the
// destination is aligned to the vector, vector body, scalar tail), ending
// with a store fence. Throw std::logic_error where kHaveNontemporalKernels
// is false (plan() rejects that case before anything runs).
template <class T>
void copy_nontemporal(const T* __restrict a, T* __restrict c, std::size_t begin, std::size_t end);
template <class T>
void scale_nontemporal(T* __restrict b, const T* __restrict c, T s, std::size_t begin, std::size_t end);
template <class T>
void add_nontemporal(const T* __restrict a, const T* __restrict b, T* __restrict c, std::size_t begin, std::size_t end);
template <class T>
void triad_nontemporal(T* __restrict a, const T* __restrict b, const T* __restrict c, T s, std::size_t begin,
                       std::size_t end);

// Runs one kernel of the table with scalar kStreamScalar on [begin, end).
template <class T>
void run_stream_kernel(StreamKernel kernel, StoreKind stores, const StreamArrays<T>& arrays, std::size_t begin,
                       std::size_t end);

}  // namespace bws::stream
