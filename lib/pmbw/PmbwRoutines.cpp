#include "pmbw/PmbwRoutines.hpp"

#include <cstring>

namespace bws::pmbw {
namespace {

#if defined(__x86_64__)
using A = PmbwAccess;
using O = PmbwOp;
using I = PmbwIsa;
constexpr bool kPtr = false, kIndex = true, kTemporal = false, kNT = true;
constexpr int kSimple = 1, kUnroll = 16;

#define READ(name, bits, indexed, unroll, isa) \
  {#name, A::Scan, O::Read, bits, indexed, unroll, kTemporal, isa, x86::name, x86::name##Checksum, nullptr}
#define WRITE(name, bits, indexed, unroll, nt, isa) \
  {#name, A::Scan, O::Write, bits, indexed, unroll, nt, isa, x86::name, nullptr, nullptr}
#define PERM(name, unroll) {#name, A::Perm, O::Read, 64, kPtr, unroll, kTemporal, I::Base, nullptr, nullptr, x86::name}

// pmbw's list in its order (widest first), with the 512-bit and
// non-temporal routines pmbw lacks next to their 256-bit peers.
const std::vector<PmbwRoutine> kRoutines = {
    WRITE(ScanWrite512PtrSimpleLoop, 512, kPtr, kSimple, kTemporal, I::Avx512),
    WRITE(ScanWrite512PtrUnrollLoop, 512, kPtr, kUnroll, kTemporal, I::Avx512),
    WRITE(ScanWrite512PtrUnrollLoopNT, 512, kPtr, kUnroll, kNT, I::Avx512),
    READ(ScanRead512PtrSimpleLoop, 512, kPtr, kSimple, I::Avx512),
    READ(ScanRead512PtrUnrollLoop, 512, kPtr, kUnroll, I::Avx512),
    WRITE(ScanWrite256PtrSimpleLoop, 256, kPtr, kSimple, kTemporal, I::Avx),
    WRITE(ScanWrite256PtrUnrollLoop, 256, kPtr, kUnroll, kTemporal, I::Avx),
    WRITE(ScanWrite256PtrUnrollLoopNT, 256, kPtr, kUnroll, kNT, I::Avx),
    READ(ScanRead256PtrSimpleLoop, 256, kPtr, kSimple, I::Avx),
    READ(ScanRead256PtrUnrollLoop, 256, kPtr, kUnroll, I::Avx),
    WRITE(ScanWrite128PtrSimpleLoop, 128, kPtr, kSimple, kTemporal, I::Sse2),
    WRITE(ScanWrite128PtrUnrollLoop, 128, kPtr, kUnroll, kTemporal, I::Sse2),
    READ(ScanRead128PtrSimpleLoop, 128, kPtr, kSimple, I::Sse2),
    READ(ScanRead128PtrUnrollLoop, 128, kPtr, kUnroll, I::Sse2),
    WRITE(ScanWrite64PtrSimpleLoop, 64, kPtr, kSimple, kTemporal, I::Base),
    WRITE(ScanWrite64PtrUnrollLoop, 64, kPtr, kUnroll, kTemporal, I::Base),
    READ(ScanRead64PtrSimpleLoop, 64, kPtr, kSimple, I::Base),
    READ(ScanRead64PtrUnrollLoop, 64, kPtr, kUnroll, I::Base),
    WRITE(ScanWrite64IndexSimpleLoop, 64, kIndex, kSimple, kTemporal, I::Base),
    WRITE(ScanWrite64IndexUnrollLoop, 64, kIndex, kUnroll, kTemporal, I::Base),
    READ(ScanRead64IndexSimpleLoop, 64, kIndex, kSimple, I::Base),
    READ(ScanRead64IndexUnrollLoop, 64, kIndex, kUnroll, I::Base),
    WRITE(ScanWrite32PtrSimpleLoop, 32, kPtr, kSimple, kTemporal, I::Base),
    WRITE(ScanWrite32PtrUnrollLoop, 32, kPtr, kUnroll, kTemporal, I::Base),
    READ(ScanRead32PtrSimpleLoop, 32, kPtr, kSimple, I::Base),
    READ(ScanRead32PtrUnrollLoop, 32, kPtr, kUnroll, I::Base),
    PERM(PermRead64SimpleLoop, kSimple),
    PERM(PermRead64UnrollLoop, kUnroll),
};
#undef READ
#undef WRITE
#undef PERM
#else
const std::vector<PmbwRoutine> kRoutines = {};
#endif

}  // namespace

const std::vector<PmbwRoutine>& pmbw_routines() { return kRoutines; }

std::vector<const PmbwRoutine*> runnable_routines(const PmbwCpuFeatures& cpu) {
  std::vector<const PmbwRoutine*> out;
  for (const PmbwRoutine& r : kRoutines)
    if (cpu.supports(r.isa)) out.push_back(&r);
  return out;
}

const PmbwRoutine* find_routine(const std::string& name) {
  for (const PmbwRoutine& r : kRoutines)
    if (name == r.name) return &r;
  return nullptr;
}

const char* build_architecture() {
#if defined(__x86_64__)
  return "x86-64";
#elif defined(__aarch64__)
  return "aarch64";
#elif defined(__powerpc64__)
  return "ppc64";
#else
  return "this architecture";
#endif
}

std::string unavailable_reason(const PmbwRoutine& routine, const PmbwCpuFeatures& cpu) {
  if (cpu.supports(routine.isa)) return "";
  return std::string(routine.name) + " needs " + isa_name(routine.isa) +
         ", which this CPU or its operating system does not support";
}

}  // namespace bws::pmbw
