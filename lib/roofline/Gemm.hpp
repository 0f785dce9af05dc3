#pragma once
// Matrix multiply through a BLAS (OpenBLAS from the distribution, found by
// CMake; optional): the roofline's achievable compute ceiling, as LINPACK
// or GEMM gives it in Andreolli et al.'s roofline study. Every pinned thread multiplies its own
// n x n matrices with a single-threaded BLAS call (HPCC's "star" DGEMM): the
// team's threads stay where they were pinned, each thread's matrices are on
// its NUMA node, and BLAS runs no threads of its own.
//
// Inputs are small integers (A[i][k] = (i + 2k) mod 7 - 3, B[k][j] =
// (3k + j) mod 5 - 2), so every partial sum is an integer far below 2^24 and
// C = A B is exact in float and double in any summation order: validation
// compares entries exactly.
#include <cstddef>
#include <cstdint>
#include <string>

#include "stream/StreamTypes.hpp"

namespace bws::roofline {

using stream::StreamType;

// This build was linked with a BLAS.
bool blas_available();
// "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY SkylakeX MAX_THREADS=64" or
// "none".
std::string blas_description();
// Makes every later call run on the calling thread only (no BLAS threads).
void blas_use_calling_thread_only();

// Bytes of one n x n matrix of `type`.
std::uint64_t matrix_bytes(std::uint64_t n, StreamType type);
// Floating-point operations of one n x n x n multiply: n^2 dot products of
// length n, each n multiplies and n adds.
inline std::uint64_t gemm_flops(std::uint64_t n) { return 2 * n * n * n; }

// A and B (row-major, n x n, of `type`) get the integer pattern above.
void fill_gemm_inputs(StreamType type, std::size_t n, void* a, void* b);
// C = A B (row-major), beta = 0. Throws std::logic_error without a BLAS.
void gemm(StreamType type, std::size_t n, const void* a, const void* b, void* c);
// Entries of C that differ from the exact product, of the 9 checked (rows
// 0, n/2, n-1 x columns 0, n/3, n-1; each O(n)).
int wrong_gemm_entries(StreamType type, std::size_t n, const void* c);

}  // namespace bws::roofline
