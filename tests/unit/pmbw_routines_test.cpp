// pmbw: the assembly routines touch exactly their bytes (checksums of the
// same loads, written values and untouched guards), the permutation is one
// cycle and the counted walk stops exactly.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "pmbw/PmbwCpu.hpp"
#include "pmbw/PmbwPermutation.hpp"
#include "pmbw/PmbwRoutines.hpp"

namespace bws::pmbw {
namespace {

constexpr std::uint64_t kGuardBytes = 4096;
constexpr unsigned char kGuardByte = 0x5A;

// A 4 KiB-aligned buffer with guard words before and after the area.
struct GuardedArea {
  explicit GuardedArea(std::uint64_t bytes) : bytes_(bytes) {
    const std::uint64_t total = bytes + 2 * kGuardBytes;
    memory_.reset(static_cast<unsigned char*>(std::aligned_alloc(4096, (total + 4095) / 4096 * 4096)));
    std::memset(memory_.get(), kGuardByte, total);
  }
  unsigned char* area() const { return memory_.get() + kGuardBytes; }
  std::uint64_t* words() const { return reinterpret_cast<std::uint64_t*>(area()); }
  bool guards_intact() const {
    const unsigned char* b = memory_.get();
    for (std::uint64_t i = 0; i < kGuardBytes; ++i)
      if (b[i] != kGuardByte || b[kGuardBytes + bytes_ + i] != kGuardByte) return false;
    return true;
  }

 private:
  struct Free {
    void operator()(unsigned char* p) const { std::free(p); }
  };
  std::uint64_t bytes_;
  std::unique_ptr<unsigned char, Free> memory_;
};

std::vector<const PmbwRoutine*> runnable() { return runnable_routines(detect_cpu_features()); }

// Area sizes for a routine: one loop iteration, three, and (simple loops)
// an odd count of accesses.
std::vector<std::uint64_t> test_sizes(const PmbwRoutine& r) {
  std::vector<std::uint64_t> sizes = {r.block_bytes(), 3 * r.block_bytes(), 64 * r.block_bytes()};
  if (r.unroll == 1) sizes.push_back(7 * r.access_bytes());
  return sizes;
}

// ---- the routines ----

TEST(PmbwRoutines, TableHasPmbwsRoutinesAndTheWiderOnes) {
#if defined(__x86_64__)
  EXPECT_EQ(pmbw_routines().size(), 28u);
  for (const char* name : {"ScanRead64PtrUnrollLoop", "ScanWrite64PtrUnrollLoop", "ScanRead256PtrUnrollLoop",
                           "PermRead64UnrollLoop", "PermRead64SimpleLoop", "ScanRead64IndexSimpleLoop",
                           "ScanWrite512PtrUnrollLoopNT", "ScanWrite256PtrUnrollLoopNT", "ScanRead32PtrSimpleLoop"})
    EXPECT_NE(find_routine(name), nullptr) << name;
  EXPECT_EQ(find_routine("ScanRead32IndexSimpleLoop"), nullptr);  // Index only for 64-bit, as pmbw
  const PmbwRoutine& r = *find_routine("ScanRead256PtrUnrollLoop");
  EXPECT_EQ(r.access_bytes(), 32u);
  EXPECT_EQ(r.block_bytes(), 512u);
  EXPECT_EQ(r.isa, PmbwIsa::Avx);
  EXPECT_EQ(find_routine("ScanWrite512PtrUnrollLoopNT")->isa, PmbwIsa::Avx512);
  // The name says what the row says.
  for (const PmbwRoutine& x : pmbw_routines()) {
    const std::string n = x.name;
    EXPECT_EQ(n.rfind(x.access == PmbwAccess::Scan ? "Scan" : "Perm", 0), 0u) << n;
    EXPECT_NE(n.find(x.op == PmbwOp::Read ? "Read" : "Write"), std::string::npos) << n;
    EXPECT_NE(n.find(std::to_string(x.access_bits)), std::string::npos) << n;
    EXPECT_NE(n.find(x.unroll == 16 ? "UnrollLoop" : "SimpleLoop"), std::string::npos) << n;
    EXPECT_EQ(n.size() > 2 && n.substr(n.size() - 2) == "NT", x.nontemporal) << n;
  }
#else
  EXPECT_TRUE(pmbw_routines().empty());
#endif
}

TEST(PmbwRoutines, ReadsLoadEveryByteOfTheAreaOncePerRepeat) {
  for (const PmbwRoutine* r : runnable()) {
    if (r->access != PmbwAccess::Scan || r->op != PmbwOp::Read) continue;
    if (r->access_bits == 256 && !detect_cpu_features().avx2) continue;  // the checksum's vpaddq needs AVX2
    for (std::uint64_t bytes : test_sizes(*r)) {
      GuardedArea g(bytes);
      const std::uint64_t n = bytes / 8;
      for (std::uint64_t i = 0; i < n; ++i) g.words()[i] = 3 * i + 1 + (i << 33);
      for (std::uint64_t repeats : {1, 3}) {
        std::uint64_t lanes[8] = {};
        r->checksum(g.area(), bytes, repeats, lanes);
        if (r->access_bits == 32) {
          std::uint32_t expect = 0;
          const auto* w32 = reinterpret_cast<const std::uint32_t*>(g.area());
          for (std::uint64_t i = 0; i < bytes / 4; ++i) expect += w32[i];
          expect *= static_cast<std::uint32_t>(repeats);
          EXPECT_EQ(static_cast<std::uint32_t>(lanes[0]), expect) << r->name << " " << bytes;
        } else {
          const std::uint64_t lane_count = r->access_bytes() / 8;
          for (std::uint64_t lane = 0; lane < lane_count; ++lane) {
            std::uint64_t expect = 0;
            for (std::uint64_t i = lane; i < n; i += lane_count) expect += g.words()[i];
            EXPECT_EQ(lanes[lane], expect * repeats) << r->name << " bytes " << bytes << " lane " << lane;
          }
        }
      }
      r->scan(g.area(), bytes, 2);  // the timed form runs on the same area
      EXPECT_TRUE(g.guards_intact()) << r->name;
    }
  }
}

TEST(PmbwRoutines, WritesStoreThePatternOnEveryByteAndNothingElse) {
  for (const PmbwRoutine* r : runnable()) {
    if (r->access != PmbwAccess::Scan || r->op != PmbwOp::Write) continue;
    for (std::uint64_t bytes : test_sizes(*r)) {
      GuardedArea g(bytes);
      std::memset(g.area(), 0, bytes);
      r->scan(g.area(), bytes, 2);
      for (std::uint64_t i = 0; i < bytes / 8; ++i)
        ASSERT_EQ(g.words()[i], kWritePattern) << r->name << " bytes " << bytes << " word " << i;
      if (bytes % 8) {  // an odd count of 32-bit stores: the last half word
        std::uint32_t last = 0;
        std::memcpy(&last, g.area() + bytes - 4, 4);
        EXPECT_EQ(last, static_cast<std::uint32_t>(kWritePattern)) << r->name;
      }
      EXPECT_TRUE(g.guards_intact()) << r->name << " bytes " << bytes;
    }
  }
}

// ---- the permutation ----

TEST(PmbwPermutation, SattoloGivesOneCycleThroughEveryElement) {
  for (std::uint64_t n : {1, 2, 15, 16, 17, 1000}) {
    const std::vector<std::uint64_t> next = sattolo_cycle(n, 42);
    std::vector<int> seen(n, 0);
    std::uint64_t i = 0;
    for (std::uint64_t step = 0; step < n; ++step) {
      seen[i] += 1;
      i = next[i];
    }
    EXPECT_EQ(i, 0u) << "n=" << n;  // back at the start after exactly n steps
    for (std::uint64_t k = 0; k < n; ++k) EXPECT_EQ(seen[k], 1) << "n=" << n << " element " << k;
  }
  EXPECT_EQ(sattolo_cycle(1000, 7), sattolo_cycle(1000, 7));  // seeded: the same walk again
  EXPECT_NE(sattolo_cycle(1000, 7), sattolo_cycle(1000, 8));
}

TEST(PmbwPermutation, PointerCycleHasTheFullLength) {
  for (std::uint64_t n : {1, 15, 16, 17, 1000}) {
    std::vector<std::uint64_t> cells(n);
    write_pointer_cycle(cells.data(), n, 3);
    EXPECT_EQ(pointer_cycle_length(cells.data(), n), n);
  }
}

// Where a C++ walk of `steps` loads from cells[0] ends.
const void* walk_on_host(const std::uint64_t* cells, std::uint64_t steps) {
  std::uint64_t p = reinterpret_cast<std::uint64_t>(cells);
  for (std::uint64_t s = 0; s < steps; ++s) p = *reinterpret_cast<const std::uint64_t*>(p);
  return reinterpret_cast<const void*>(p);
}

TEST(PmbwPermutation, WalksStopExactlyAfterTheirStepsForAnyLength) {
  for (const PmbwRoutine* r : runnable()) {
    if (r->access != PmbwAccess::Perm) continue;
    for (std::uint64_t n : {1, 15, 16, 17, 1000}) {
      std::vector<std::uint64_t> cells(n);
      write_pointer_cycle(cells.data(), n, 11);
      // A whole cycle per repeat ends where it began: each element once.
      for (std::uint64_t repeats : {1, 3})
        EXPECT_EQ(r->perm(cells.data(), n, repeats), cells.data()) << r->name << " n=" << n;
      // Any step count (not only multiples of 16) ends where the host walk does.
      for (std::uint64_t steps = 1; steps <= std::min<std::uint64_t>(n + 20, 80); ++steps) {
        EXPECT_EQ(r->perm(cells.data(), steps, 1), walk_on_host(cells.data(), steps))
            << r->name << " n=" << n << " steps=" << steps;
        EXPECT_EQ(r->perm(cells.data(), steps, 2), walk_on_host(cells.data(), 2 * steps))
            << r->name << " n=" << n << " steps=" << steps;
      }
    }
  }
}

// ---- sizes and layouts ----

}  // namespace
}  // namespace bws::pmbw
