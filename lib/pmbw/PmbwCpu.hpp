#pragma once
// Which pmbw instruction sets the CPU and the operating system support: the
// CPUID feature bits, and XGETBV for whether the OS saves the YMM / ZMM
// state on a context switch (pmbw skips the latter, so it may offer AVX
// routines that fault).
#include <string>

namespace bws::pmbw {

enum class PmbwIsa { Base, Sse2, Avx, Avx2, Avx512 };

struct PmbwCpuFeatures {
  bool sse2 = false;
  bool avx = false;     // CPUID.AVX + OSXSAVE, and the OS saves XMM and YMM
  bool avx2 = false;    // AVX plus CPUID.7.AVX2
  bool avx512 = false;  // CPUID.7.AVX512F, and the OS saves opmask and ZMM
  bool supports(PmbwIsa isa) const;
};

PmbwCpuFeatures detect_cpu_features();
const char* isa_name(PmbwIsa isa);  // "SSE2", "AVX", "AVX-512F" ...
std::string describe_features(const PmbwCpuFeatures& cpu);  // "sse2 avx avx2 avx512f"

}  // namespace bws::pmbw
