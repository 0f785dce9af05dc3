#pragma once
// What the summary says about a rank's pmbw run: the bandwidth plateaus of
// one ScanRead routine in L1, L2 and RAM, and the RAM access latency of a
// PermRead walk. Pure functions of /pmbw/results rows and the cache sizes.
#include <cstdint>
#include <string>

#include "core/Table.hpp"

namespace bws::pmbw {

struct PmbwCacheSizes {
  std::uint64_t l1_bytes = 0;   // one L1d
  std::uint64_t l2_bytes = 0;   // one L2
  std::uint64_t llc_bytes = 0;  // the rank's last-level caches together
};

struct PmbwPlateaus {
  std::string scan_routine;  // the widest ScanRead*PtrUnrollLoop run (else the first ScanRead)
  int threads = 0;           // its largest thread count
  double l1_Bps = 0, l2_Bps = 0, ram_Bps = 0;  // medians of the points inside each level; NaN: no such point
  std::uint64_t ram_test_bytes = 0;            // the smallest size counted as RAM
  std::string perm_routine;                    // PermRead64UnrollLoop, else PermRead64SimpleLoop
  double perm_ram_access_seconds = 0;          // its 1-thread latency at its largest size; NaN: not run
  std::uint64_t perm_area_bytes = 0;
};

// Levels: L1 = thread areas up to half the L1 (else up to the L1); L2 =
// areas from twice the L1 to half the L2 (else above the L1 up to the L2);
// RAM = all threads' bytes at least 4x the LLC (else the largest size, if
// above the LLC). Medians, so one noisy size does not move a plateau.
PmbwPlateaus find_plateaus(const Table& results, int rank, const PmbwCacheSizes& caches);

}  // namespace bws::pmbw
