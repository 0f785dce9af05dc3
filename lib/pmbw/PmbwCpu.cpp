#include "pmbw/PmbwCpu.hpp"

#if defined(__x86_64__)
#include <cpuid.h>
#include <cstdint>
#endif

namespace bws::pmbw {
namespace {

#if defined(__x86_64__)
// XCR0 through XGETBV; only valid when CPUID says OSXSAVE.
std::uint64_t read_xcr0() {
  std::uint32_t eax = 0, edx = 0;
  asm volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (static_cast<std::uint64_t>(edx) << 32) | eax;
}
#endif

}  // namespace

bool PmbwCpuFeatures::supports(PmbwIsa isa) const {
  switch (isa) {
    case PmbwIsa::Base: return true;
    case PmbwIsa::Sse2: return sse2;
    case PmbwIsa::Avx: return avx;
    case PmbwIsa::Avx2: return avx2;
    case PmbwIsa::Avx512: return avx512;
  }
  return false;
}

PmbwCpuFeatures detect_cpu_features() {
  PmbwCpuFeatures f;
#if defined(__x86_64__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return f;
  f.sse2 = (d & bit_SSE2) != 0;
  const bool osxsave = (c & bit_OSXSAVE) != 0;
  const bool avx_cpu = (c & bit_AVX) != 0;
  const std::uint64_t xcr0 = osxsave ? read_xcr0() : 0;
  // XCR0 bits: 1 SSE (XMM), 2 AVX (upper YMM), 5 opmask, 6 ZMM0-15 upper, 7 ZMM16-31.
  const bool os_ymm = (xcr0 & 0x6) == 0x6;
  const bool os_zmm = (xcr0 & 0xe6) == 0xe6;
  f.avx = avx_cpu && osxsave && os_ymm;
  unsigned max_leaf = __get_cpuid_max(0, nullptr);
  if (max_leaf >= 7) {
    __cpuid_count(7, 0, a, b, c, d);
    f.avx2 = f.avx && (b & bit_AVX2) != 0;
    f.avx512 = f.avx && os_zmm && (b & bit_AVX512F) != 0;
  }
#endif
  return f;
}

const char* isa_name(PmbwIsa isa) {
  switch (isa) {
    case PmbwIsa::Base: return "x86-64";
    case PmbwIsa::Sse2: return "SSE2";
    case PmbwIsa::Avx: return "AVX";
    case PmbwIsa::Avx2: return "AVX2";
    case PmbwIsa::Avx512: return "AVX-512F";
  }
  return "?";
}

std::string describe_features(const PmbwCpuFeatures& cpu) {
  std::string s;
  auto add = [&](bool on, const char* name) {
    if (!on) return;
    if (!s.empty()) s += ' ';
    s += name;
  };
  add(cpu.sse2, "sse2");
  add(cpu.avx, "avx");
  add(cpu.avx2, "avx2");
  add(cpu.avx512, "avx512f");
  return s.empty() ? "none" : s;
}

}  // namespace bws::pmbw
