#pragma once
// The FMA-throughput kernel of the roofline's compute ceiling: on every
// thread, K independent vector accumulators each updated x = x*a + b in a
// loop, so K chains hide the latency of the multiply-add units and every
// issue slot does a full-width multiply-add. One variant per instruction set
// (x86 intrinsics in functions with their own target attribute), chosen at
// run time by CPUID (and XGETBV: the OS must save the wide registers), so a
// build for a baseline CPU still measures the widest vectors the node has.
//
// The constants are exact binary fractions: a = 1023/1024, b = 1/2048, so
// x converges to the fixed point b/(1-a) = 0.5, which the update maps onto
// itself exactly; every accumulator starts at 1 + k/16. After the loop the
// kernel returns the largest relative distance of any lane from 0.5: a loop
// that did not run (or was cut short by a compiler) leaves lanes near their
// start values, and the result is read, so the loop cannot be removed.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stream/StreamTypes.hpp"

namespace bws::roofline {

using stream::StreamType;

enum class VectorIsa { Avx512, AvxFma, Avx, Sse2, Scalar };

// The widest first: auto picks the first one the CPU supports.
inline constexpr VectorIsa kIsasWidestFirst[] = {VectorIsa::Avx512, VectorIsa::AvxFma, VectorIsa::Avx,
                                                 VectorIsa::Sse2, VectorIsa::Scalar};

// "avx512f", "avx-fma", "avx", "sse2", "scalar": the --roofline.isa names.
std::string_view isa_name(VectorIsa isa);
std::optional<VectorIsa> isa_from_name(std::string_view name);
// The CPU and the OS support it (CPUID and XGETBV) and this build has it.
bool isa_supported(VectorIsa isa);
VectorIsa widest_supported_isa();
std::vector<VectorIsa> supported_isas();
// The kernels this build has, widest first (every x86 one on x86, whatever
// -march says: each has its own target attribute; else scalar only).
std::vector<VectorIsa> compiled_isas();

struct FmaKernelShape {
  int accumulators = 0;  // independent vector chains
  int lanes = 0;         // elements per vector
  bool fused = false;    // one multiply-add instruction (else a multiply, then an add)
};
FmaKernelShape fma_kernel_shape(VectorIsa isa, StreamType type);
// Floating-point operations one loop iteration does on one thread: every
// accumulator lane does one multiply and one add (2 FLOP), fused or not.
std::uint64_t fma_flops_per_iteration(VectorIsa isa, StreamType type);

inline constexpr double kFmaFixedPoint = 0.5;
// The largest relative distance from the fixed point that validates: a
// float lane settles within a few ulp / (1 - a) ~ 1e-4 of it.
inline constexpr double kFmaTolerance = 1e-3;
// Fewer iterations cannot bring the start values within the tolerance: the
// farthest starts 3.875 (relative) from 0.5, and a^n of that is left after n
// iterations: 3.875 x (1023/1024)^16384 ~ 4e-7.
inline constexpr std::uint64_t kFmaMinIterations = 16384;

// Runs `iterations` loop iterations on the calling thread; returns the
// largest |x - 0.5| / 0.5 over every lane. Throws std::logic_error for an
// ISA this CPU or build does not support (plan() rejects that first).
double run_fma_kernel(VectorIsa isa, StreamType type, std::uint64_t iterations);

}  // namespace bws::roofline
