#pragma once
// The pmbw routine table (BabelStream's benchmark table): one row per
// routine with pmbw's name, what it does (scan or permutation walk, read or
// write, bits per access, pointer or index, unrolled or not, non-temporal),
// the instruction set it needs and its kernels. A routine's name encodes the
// same fields: {Scan,Perm}{Read,Write}{32..512}{Ptr,Index}{Simple,Unroll}Loop[NT].
#include <cstdint>
#include <string>
#include <vector>

#include "pmbw/PmbwCpu.hpp"
#include "pmbw/PmbwKernels.hpp"

namespace bws::pmbw {

enum class PmbwAccess { Scan, Perm };
enum class PmbwOp { Read, Write };

struct PmbwRoutine {
  const char* name;
  PmbwAccess access;
  PmbwOp op;
  int access_bits;        // bits loaded or stored per instruction
  bool indexed;           // array[i] addressing instead of a running pointer
  int unroll;             // accesses per loop iteration: 16 (Unroll) or 1 (Simple)
  bool nontemporal;       // streaming stores that bypass the caches
  PmbwIsa isa;            // what the CPU and the OS must support
  ScanKernel scan;        // Scan routines
  ScanChecksum checksum;  // Scan Read routines: the same loads, summed (tests)
  PermKernel perm;        // Perm routines

  std::uint64_t access_bytes() const { return static_cast<std::uint64_t>(access_bits) / 8; }
  // A thread's area is a multiple of this: one loop iteration's bytes.
  std::uint64_t block_bytes() const { return access_bytes() * static_cast<std::uint64_t>(unroll); }
};

// Every routine this build has, in pmbw's order (empty off x86-64).
const std::vector<PmbwRoutine>& pmbw_routines();
// Those whose instructions this CPU and OS support.
std::vector<const PmbwRoutine*> runnable_routines(const PmbwCpuFeatures& cpu);
const PmbwRoutine* find_routine(const std::string& name);  // exact name, else nullptr

// Why a routine is missing here, for messages: "needs AVX-512F, which this
// CPU or OS does not support", or "this build has no pmbw kernels for <arch>".
std::string unavailable_reason(const PmbwRoutine& routine, const PmbwCpuFeatures& cpu);
const char* build_architecture();

}  // namespace bws::pmbw
