// The pmbw routines for x86-64 in GNU inline assembly (AT&T syntax). Every
// routine is one asm block holding both its scan loop and its repeat loop,
// so the compiler sees neither and can neither remove nor vectorise them.
// A routine's body is written once as a macro of its access instruction;
// the timed kernel and the test's checksum kernel expand the same loop with
// a load (timed) or an add of the same memory operand (checksum), so the
// addresses a test verifies are the addresses the benchmark touches.
// The assembler accepts AVX and AVX-512 instructions without -mavx; the
// routine table offers them only where CPUID and XGETBV say they run.
#if defined(__x86_64__)
#include "pmbw/PmbwKernels.hpp"

namespace bws::pmbw::x86 {
namespace {

// pmbw's write pattern in every lane of a 512-bit register, read by the
// vector write kernels into their source register.
alignas(64) const std::uint64_t kPatternLanes[8] = {kWritePattern, kWritePattern, kWritePattern, kWritePattern,
                                                    kWritePattern, kWritePattern, kWritePattern, kWritePattern};

}  // namespace

// Sixteen copies of an access at offsets 0..15 accesses: the unrolled body.
#define X16(OP) OP(0) OP(1) OP(2) OP(3) OP(4) OP(5) OP(6) OP(7) OP(8) OP(9) OP(10) OP(11) OP(12) OP(13) OP(14) OP(15)

// Pointer loop: %rax runs from begin to end in STEP-byte strides; the outer
// loop counts the repeats down. The inner loop starts on a 64-byte boundary
// (ALIGN, padding executed once per repeat): where it happened to start
// 2 bytes before a line end, the 16 loads of ScanRead64PtrUnrollLoop ran
// ~10 % slower in L1 than the same instructions in pmbw's binary. Index loop: %rax is a byte index from 0 to
// bytes, the access addresses base + index (pmbw's array[i]).
#define ALIGN ".p2align 6\n\t"
#define PTR_LOOP(BODY, STEP)                                              \
  "1:\n\t"                                                                \
  "mov %[begin], %%rax\n\t" ALIGN                                         \
  "2:\n\t" BODY "add $" #STEP ", %%rax\n\t"                               \
  "cmp %[end], %%rax\n\t"                                                 \
  "jb 2b\n\t"                                                             \
  "dec %[rep]\n\t"                                                        \
  "jnz 1b\n\t"
#define INDEX_LOOP(BODY, STEP)                                            \
  "1:\n\t"                                                                \
  "xor %%eax, %%eax\n\t" ALIGN                                            \
  "2:\n\t" BODY "add $" #STEP ", %%rax\n\t"                               \
  "cmp %[bytes], %%rax\n\t"                                               \
  "jb 2b\n\t"                                                             \
  "dec %[rep]\n\t"                                                        \
  "jnz 1b\n\t"

// A timed kernel: PRE sets up registers, the loop runs, POST cleans up.
#define DEFINE_SCAN(NAME, LOOP, BODY, STEP, PRE, POST)                                               \
  void NAME(void* area, std::uint64_t bytes, std::uint64_t repeats) {                                \
    char* const begin = static_cast<char*>(area);                                                    \
    char* const end = begin + bytes;                                                                 \
    asm volatile(PRE LOOP(BODY, STEP) POST                                                           \
                 : [rep] "+r"(repeats)                                                               \
                 : [begin] "r"(begin), [end] "r"(end), [bytes] "r"(bytes), [pat] "r"(kPatternLanes) \
                 : "rax", "rcx", "xmm0", "xmm1", "memory", "cc");                                    \
  }
// A checksum kernel: PRE zeroes the accumulator, POST stores it to lanes.
#define DEFINE_CHECKSUM(NAME, LOOP, BODY, STEP, PRE, POST)                                                    \
  void NAME##Checksum(const void* area, std::uint64_t bytes, std::uint64_t repeats, std::uint64_t* lanes) { \
    const char* const begin = static_cast<const char*>(area);                                                \
    const char* const end = begin + bytes;                                                                   \
    asm volatile(PRE LOOP(BODY, STEP) POST                                                                   \
                 : [rep] "+r"(repeats)                                                                       \
                 : [begin] "r"(begin), [end] "r"(end), [bytes] "r"(bytes), [out] "r"(lanes)                  \
                 : "rax", "rcx", "xmm0", "xmm1", "memory", "cc");                                            \
  }
// A read routine: the timed load and the checksum add share everything else.
#define DEFINE_READ(NAME, LOOP, LOAD, ADD, STEP, PRE, POST, SUM_PRE, SUM_POST) \
  DEFINE_SCAN(NAME, LOOP, LOAD, STEP, PRE, POST)                               \
  DEFINE_CHECKSUM(NAME, LOOP, ADD, STEP, SUM_PRE, SUM_POST)

// ---- access instructions, one per width: load, checksum add, store ----
// 32-bit: general register %ecx.
#define LD32(k) "movl " #k "*4(%%rax), %%ecx\n\t"
#define ADD32(k) "addl " #k "*4(%%rax), %%ecx\n\t"
#define ST32(k) "movl %%ecx, " #k "*4(%%rax)\n\t"
// 64-bit: %rcx; the Index forms address base + index.
#define LD64(k) "movq " #k "*8(%%rax), %%rcx\n\t"
#define ADD64(k) "addq " #k "*8(%%rax), %%rcx\n\t"
#define ST64(k) "movq %%rcx, " #k "*8(%%rax)\n\t"
#define LD64I(k) "movq " #k "*8(%[begin],%%rax), %%rcx\n\t"
#define ADD64I(k) "addq " #k "*8(%[begin],%%rax), %%rcx\n\t"
#define ST64I(k) "movq %%rcx, " #k "*8(%[begin],%%rax)\n\t"
// 128-bit SSE2 (aligned): %xmm0 loads/stores, %xmm1 sums 2 lanes.
#define LD128(k) "movdqa " #k "*16(%%rax), %%xmm0\n\t"
#define ADD128(k) "paddq " #k "*16(%%rax), %%xmm1\n\t"
#define ST128(k) "movdqa %%xmm0, " #k "*16(%%rax)\n\t"
// 256-bit AVX (aligned): %ymm0; the checksum's vpaddq needs AVX2.
#define LD256(k) "vmovdqa " #k "*32(%%rax), %%ymm0\n\t"
#define ADD256(k) "vpaddq " #k "*32(%%rax), %%ymm1, %%ymm1\n\t"
#define ST256(k) "vmovdqa %%ymm0, " #k "*32(%%rax)\n\t"
#define NT256(k) "vmovntdq %%ymm0, " #k "*32(%%rax)\n\t"
// 512-bit AVX-512F (aligned): %zmm0.
#define LD512(k) "vmovdqa64 " #k "*64(%%rax), %%zmm0\n\t"
#define ADD512(k) "vpaddq " #k "*64(%%rax), %%zmm1, %%zmm1\n\t"
#define ST512(k) "vmovdqa64 %%zmm0, " #k "*64(%%rax)\n\t"
#define NT512(k) "vmovntdq %%zmm0, " #k "*64(%%rax)\n\t"

// ---- set-up and clean-up per register kind ----
#define NONE ""
#define GPR_PATTERN "movq (%[pat]), %%rcx\n\t"
#define GPR_ZERO "xor %%ecx, %%ecx\n\t"
#define GPR_OUT "movq %%rcx, (%[out])\n\t"
#define XMM_PATTERN "movdqa (%[pat]), %%xmm0\n\t"
#define XMM_ZERO "pxor %%xmm1, %%xmm1\n\t"
#define XMM_OUT "movdqu %%xmm1, (%[out])\n\t"
#define YMM_PATTERN "vmovdqa (%[pat]), %%ymm0\n\t"
#define ZMM_PATTERN "vmovdqa64 (%[pat]), %%zmm0\n\t"
#define VEC_ZERO "vpxor %%xmm1, %%xmm1, %%xmm1\n\t"  // VEX/EVEX zero the upper lanes too
#define YMM_OUT "vmovdqu %%ymm1, (%[out])\n\t"
#define ZMM_OUT "vmovdqu64 %%zmm1, (%[out])\n\t"
// After 256/512-bit code: no SSE transition penalty for the caller.
#define VZU "vzeroupper\n\t"
// Non-temporal stores are weakly ordered: fence before timing stops.
#define NT_END "sfence\n\tvzeroupper\n\t"

// ---- the routines: name, loop, access, bytes per loop iteration ----
DEFINE_READ(ScanRead32PtrSimpleLoop, PTR_LOOP, LD32(0), ADD32(0), 4, NONE, NONE, GPR_ZERO, GPR_OUT)
DEFINE_READ(ScanRead32PtrUnrollLoop, PTR_LOOP, X16(LD32), X16(ADD32), 64, NONE, NONE, GPR_ZERO, GPR_OUT)
DEFINE_READ(ScanRead64PtrSimpleLoop, PTR_LOOP, LD64(0), ADD64(0), 8, NONE, NONE, GPR_ZERO, GPR_OUT)
DEFINE_READ(ScanRead64PtrUnrollLoop, PTR_LOOP, X16(LD64), X16(ADD64), 128, NONE, NONE, GPR_ZERO, GPR_OUT)
DEFINE_READ(ScanRead64IndexSimpleLoop, INDEX_LOOP, LD64I(0), ADD64I(0), 8, NONE, NONE, GPR_ZERO, GPR_OUT)
DEFINE_READ(ScanRead64IndexUnrollLoop, INDEX_LOOP, X16(LD64I), X16(ADD64I), 128, NONE, NONE, GPR_ZERO, GPR_OUT)
DEFINE_READ(ScanRead128PtrSimpleLoop, PTR_LOOP, LD128(0), ADD128(0), 16, NONE, NONE, XMM_ZERO, XMM_OUT)
DEFINE_READ(ScanRead128PtrUnrollLoop, PTR_LOOP, X16(LD128), X16(ADD128), 256, NONE, NONE, XMM_ZERO, XMM_OUT)
DEFINE_READ(ScanRead256PtrSimpleLoop, PTR_LOOP, LD256(0), ADD256(0), 32, NONE, VZU, VEC_ZERO, YMM_OUT VZU)
DEFINE_READ(ScanRead256PtrUnrollLoop, PTR_LOOP, X16(LD256), X16(ADD256), 512, NONE, VZU, VEC_ZERO, YMM_OUT VZU)
DEFINE_READ(ScanRead512PtrSimpleLoop, PTR_LOOP, LD512(0), ADD512(0), 64, NONE, VZU, VEC_ZERO, ZMM_OUT VZU)
DEFINE_READ(ScanRead512PtrUnrollLoop, PTR_LOOP, X16(LD512), X16(ADD512), 1024, NONE, VZU, VEC_ZERO, ZMM_OUT VZU)

DEFINE_SCAN(ScanWrite32PtrSimpleLoop, PTR_LOOP, ST32(0), 4, GPR_PATTERN, NONE)
DEFINE_SCAN(ScanWrite32PtrUnrollLoop, PTR_LOOP, X16(ST32), 64, GPR_PATTERN, NONE)
DEFINE_SCAN(ScanWrite64PtrSimpleLoop, PTR_LOOP, ST64(0), 8, GPR_PATTERN, NONE)
DEFINE_SCAN(ScanWrite64PtrUnrollLoop, PTR_LOOP, X16(ST64), 128, GPR_PATTERN, NONE)
DEFINE_SCAN(ScanWrite64IndexSimpleLoop, INDEX_LOOP, ST64I(0), 8, GPR_PATTERN, NONE)
DEFINE_SCAN(ScanWrite64IndexUnrollLoop, INDEX_LOOP, X16(ST64I), 128, GPR_PATTERN, NONE)
DEFINE_SCAN(ScanWrite128PtrSimpleLoop, PTR_LOOP, ST128(0), 16, XMM_PATTERN, NONE)
DEFINE_SCAN(ScanWrite128PtrUnrollLoop, PTR_LOOP, X16(ST128), 256, XMM_PATTERN, NONE)
DEFINE_SCAN(ScanWrite256PtrSimpleLoop, PTR_LOOP, ST256(0), 32, YMM_PATTERN, VZU)
DEFINE_SCAN(ScanWrite256PtrUnrollLoop, PTR_LOOP, X16(ST256), 512, YMM_PATTERN, VZU)
DEFINE_SCAN(ScanWrite512PtrSimpleLoop, PTR_LOOP, ST512(0), 64, ZMM_PATTERN, VZU)
DEFINE_SCAN(ScanWrite512PtrUnrollLoop, PTR_LOOP, X16(ST512), 1024, ZMM_PATTERN, VZU)
DEFINE_SCAN(ScanWrite256PtrUnrollLoopNT, PTR_LOOP, X16(NT256), 512, YMM_PATTERN, NT_END)
DEFINE_SCAN(ScanWrite512PtrUnrollLoopNT, PTR_LOOP, X16(NT512), 1024, ZMM_PATTERN, NT_END)

// Permutation walks: each load yields the next address, so no prefetcher
// helps and the time per load is the latency. The walk is counted, not
// compared with its start: exactly `steps` loads per repeat, the unrolled
// form doing steps/16 blocks of 16 and then the steps%16 that remain (pmbw
// compares only every 16 loads, so a cycle whose length is not a multiple
// of 16 is walked up to 16 times). steps >= 1.
// One load per step for %rcx steps, looping back to LABEL; then the next
// repeat, if any.
#define WALK_STEPS(LABEL) \
  "mov (%[p]), %[p]\n\t"  \
  "dec %%rcx\n\t"         \
  "jnz " #LABEL "b\n\t"
#define NEXT_REPEAT \
  "dec %[rep]\n\t" \
  "jnz 1b\n\t"
#define WALK_OPERANDS                    \
  : [p] "+r"(p), [rep] "+r"(repeats)     \
  : [steps] "r"(steps)                   \
  : "rcx", "memory", "cc"
void* PermRead64SimpleLoop(void* start, std::uint64_t steps, std::uint64_t repeats) {
  void* p = start;
  asm volatile(
      "1:\n\t"
      "mov %[steps], %%rcx\n\t" ALIGN
      "2:\n\t" WALK_STEPS(2) NEXT_REPEAT WALK_OPERANDS);
  return p;
}

#define WALK(k) "mov (%[p]), %[p]\n\t"
void* PermRead64UnrollLoop(void* start, std::uint64_t steps, std::uint64_t repeats) {
  void* p = start;
  asm volatile(
      "1:\n\t"
      "mov %[steps], %%rcx\n\t"
      "shr $4, %%rcx\n\t"
      "jz 3f\n\t" ALIGN
      "2:\n\t" X16(WALK)
      "dec %%rcx\n\t"
      "jnz 2b\n\t"
      "3:\n\t"
      "mov %[steps], %%rcx\n\t"
      "and $15, %%rcx\n\t"
      "jz 5f\n\t"
      "4:\n\t" WALK_STEPS(4)
      "5:\n\t" NEXT_REPEAT WALK_OPERANDS);
  return p;
}

}  // namespace bws::pmbw::x86
#endif
