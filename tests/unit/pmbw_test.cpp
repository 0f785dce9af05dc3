// pmbw: the assembly routines touch exactly their bytes (checksums of the
// same loads, written values and untouched guards), the permutation is one
// cycle and the counted walk stops exactly, the size table and thread
// layouts match pmbw's rules, the plan's errors, the plateaus, and the
// stats lines parse back to the same values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <vector>

#include "TestSupport.hpp"
#include "pmbw/PmbwCpu.hpp"
#include "pmbw/PmbwPermutation.hpp"
#include "pmbw/PmbwPlan.hpp"
#include "pmbw/PmbwPlateaus.hpp"
#include "pmbw/PmbwResults.hpp"
#include "pmbw/PmbwRoutines.hpp"
#include "pmbw/PmbwSizes.hpp"
#include "pmbw/PmbwStats.hpp"
#include "topology/Topology.hpp"

namespace bws::pmbw {
namespace {

using test::usage_error_of;

constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB;
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

TEST(PmbwSizes, PmbwsTable) {
  const auto all = pmbw_size_table(1ull << 30);
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all.front(), 1 * KiB);
  EXPECT_EQ(all[4], 6 * KiB);
  EXPECT_EQ(all[21], 768 * KiB);
  EXPECT_EQ(all[22], 1 * MiB);
  EXPECT_EQ(all[23], 1 * MiB + 256 * KiB);
  EXPECT_EQ(all[30], 3 * MiB);
  EXPECT_EQ(all[31], 4 * MiB);
  EXPECT_EQ(all[37], 10 * MiB);
  EXPECT_EQ(all[38], 12 * MiB);
  EXPECT_EQ(all[48], 64 * MiB);
  EXPECT_EQ(all[49], 128 * MiB);
  EXPECT_EQ(all.back(), 1024 * MiB);
  EXPECT_EQ(all.size(), 53u);  // 22 KiB sizes, 9 + 7 + 11 MiB sizes, 128 MiB .. 1 GiB
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end()));
  EXPECT_EQ(sizes_between(3 * KiB, 16 * KiB), (std::vector<std::uint64_t>{3 * KiB, 4 * KiB, 6 * KiB, 8 * KiB, 12 * KiB, 16 * KiB}));
  EXPECT_EQ(quick_sizes(1 * KiB, 128 * MiB),
            (std::vector<std::uint64_t>{1 * KiB, 4 * KiB, 16 * KiB, 64 * KiB, 256 * KiB, 1 * MiB, 4 * MiB, 16 * MiB,
                                        64 * MiB, 128 * MiB}));
}

TEST(PmbwSizes, ThreadAreasRoundUpToWholeIterationsAndAreSpaced) {
  // 1 KiB over 3 threads, 64-bit unrolled (128 B iterations): 341 -> 384 B each.
  PmbwThreadLayout l = thread_layout(1 * KiB, 3, 128);
  EXPECT_EQ(l.thread_bytes, 384u);
  EXPECT_EQ(l.test_bytes, 1152u);
  EXPECT_EQ(l.spacing_bytes, 4 * MiB + 16 * KiB);
  EXPECT_EQ(l.buffer_bytes, 2 * (4 * MiB + 16 * KiB) + 384);
  // Simple loops of 4 B still get at least a cache line per thread.
  l = thread_layout(1 * KiB, 32, 4);
  EXPECT_EQ(l.thread_bytes, 64u);
  EXPECT_EQ(l.test_bytes, 2048u);
  // Large areas lie side by side.
  l = thread_layout(256 * MiB, 2, 1024);
  EXPECT_EQ(l.thread_bytes, 128 * MiB);
  EXPECT_EQ(l.spacing_bytes, 128 * MiB);
  EXPECT_EQ(l.buffer_bytes, 256 * MiB);
  // One thread: the area itself.
  l = thread_layout(1 * KiB, 1, 1024);
  EXPECT_EQ(l.thread_bytes, 1024u);
  EXPECT_EQ(l.buffer_bytes, 1024u);
}

// ---- plan ----

TEST(PmbwPlan, ThreadCounts) {
  EXPECT_EQ(parse_thread_counts("auto", 4, false), (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(parse_thread_counts("auto", 6, true), (std::vector<int>{1, 2, 4, 6}));
  EXPECT_EQ(parse_thread_counts("1..8", 8, true), (std::vector<int>{1, 2, 4, 8}));
  EXPECT_EQ(parse_thread_counts("4,1,2,2", 4, false), (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(parse_thread_counts("2-3", 4, false), (std::vector<int>{2, 3}));
  EXPECT_NE(usage_error_of([] { parse_thread_counts("5", 4, false); }).find("--pmbw.threads: 5 threads is out of range"),
            std::string::npos);
  EXPECT_NE(usage_error_of([] { parse_thread_counts("0", 4, false); }).find("1 to the rank's 4 threads"), std::string::npos);
  EXPECT_NE(usage_error_of([] { parse_thread_counts("two", 4, false); }).find("--pmbw.threads"), std::string::npos);
  EXPECT_NE(usage_error_of([] { parse_thread_counts("3..2", 4, false); }).find("is empty"), std::string::npos);
}

TEST(PmbwPlan, RoutinesByNameFilterAndCpu) {
  PmbwCpuFeatures no_avx;
  no_avx.sse2 = true;
  PmbwCpuFeatures all = no_avx;
  all.avx = all.avx2 = all.avx512 = true;
#if defined(__x86_64__)
  const auto chosen = parse_routines("PermRead64UnrollLoop, ScanRead64PtrUnrollLoop", all);
  ASSERT_EQ(chosen.size(), 2u);
  EXPECT_STREQ(chosen[0]->name, "ScanRead64PtrUnrollLoop");  // table order
  EXPECT_EQ(parse_routines("all", all).size(), 28u);
  EXPECT_EQ(parse_routines("all", no_avx).size(), 18u);  // no 256/512-bit routines
  EXPECT_EQ(parse_routines("~Perm", all).size(), 2u);
  const std::string unknown = usage_error_of([&] { parse_routines("ScanRead64Bogus", all); });
  EXPECT_NE(unknown.find("--pmbw.routines: unknown routine 'ScanRead64Bogus'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("available on this CPU: ScanWrite512PtrSimpleLoop"), std::string::npos) << unknown;
  const std::string cannot = usage_error_of([&] { parse_routines("ScanRead512PtrUnrollLoop", no_avx); });
  EXPECT_NE(cannot.find("ScanRead512PtrUnrollLoop needs AVX-512F"), std::string::npos) << cannot;
  EXPECT_EQ(cannot.find("ScanRead256"), std::string::npos) << cannot;  // not offered as available
  EXPECT_NE(usage_error_of([&] { parse_routines("~Nothing", all); }).find("no routine this CPU runs contains"),
            std::string::npos);
#endif
}

Config config_with(std::map<std::string, std::string> values) {
  Config config;
  for (auto& [k, v] : values) config.set(k, v);
  return config;
}

const char* const kNode = "numa:1(memory=4GiB) pack:1 l3:1(size=8MiB) l2:2(size=1MiB) l1d:1(size=32KiB) core:1 pu:1";

TEST(PmbwPlan, SizesMemoryAndErrors) {
#if defined(__x86_64__)
  const topo::Topology t = topo::Topology::synthetic(kNode);
  const NodeContext node{t, "n1", 0, 1, 0, 2, false};
  PmbwParams p = plan_pmbw(config_with({{kRoutinesOption, "ScanRead64PtrUnrollLoop"}}), node);
  EXPECT_EQ(p.sizes.back(), 1024 * MiB);  // auto: 1 GiB fits in 40% of 4 GiB
  EXPECT_EQ(p.thread_counts, (std::vector<int>{1, 2}));
  EXPECT_EQ(p.samples, 3);
  EXPECT_DOUBLE_EQ(p.min_time_seconds, 1.0);
  // --quick: 4x the 8 MiB LLC = 32 MiB, the short size list, 0.02 s.
  const NodeContext quick{t, "n1", 0, 1, 0, 2, true};
  p = plan_pmbw(config_with({{kRoutinesOption, "ScanRead64PtrUnrollLoop"}}), quick);
  EXPECT_EQ(p.sizes.back(), 32 * MiB);
  EXPECT_EQ(p.sizes.size(), 9u);
  EXPECT_DOUBLE_EQ(p.min_time_seconds, 0.02);
  // Bad input: one line naming the option.
  EXPECT_NE(usage_error_of([&] { plan_pmbw(config_with({{kMinBytesOption, "8M"}, {kMaxBytesOption, "1M"}}), node); })
                .find("--pmbw.min-bytes 8.00 MiB is above --pmbw.max-bytes 1.00 MiB"),
            std::string::npos);
  EXPECT_NE(usage_error_of([&] { plan_pmbw(config_with({{kMaxBytesOption, "64G"}}), node); })
                .find("--pmbw.max-bytes 64.00 GiB: the areas need"),
            std::string::npos);
  // By their old names, the messages name the options as given.
  EXPECT_NE(usage_error_of([&] { plan_pmbw(config_with({{"pmbw.min-size", "8M"}, {"pmbw.max-size", "1M"}}), node); })
                .find("--pmbw.min-size 8.00 MiB is above --pmbw.max-size 1.00 MiB"),
            std::string::npos);
  EXPECT_NE(usage_error_of([&] { plan_pmbw(config_with({{"pmbw.max-size", "64G"}}), node); })
                .find("--pmbw.max-size 64.00 GiB: the areas need"),
            std::string::npos);
  EXPECT_EQ(plan_pmbw(config_with({{kRoutinesOption, "ScanRead64PtrUnrollLoop"}, {"pmbw.samples", "7"}}), node).samples,
            7);
  EXPECT_NE(usage_error_of([&] { plan_pmbw(config_with({{kThreadsOption, "3"}}), node); }).find("--pmbw.threads"),
            std::string::npos);
  EXPECT_NE(usage_error_of([&] { plan_pmbw(config_with({{kMinBytesOption, "5K"}, {kMaxBytesOption, "5K"}}), node); })
                .find("holds no size of pmbw's table"),
            std::string::npos);
  EXPECT_NE(usage_error_of([&] { plan_pmbw(config_with({{kRepsOption, "0"}}), node); }).find("--pmbw.reps"),
            std::string::npos);
  EXPECT_NE(usage_error_of([&] { plan_pmbw(config_with({{kMinTimeOption, "-1"}}), node); }).find("--pmbw.min-time"),
            std::string::npos);
#endif
}

// ---- plateaus ----

TEST(PmbwPlateaus, MediansInsideEachLevelAndTheLatencyAtTheLargestSize) {
  Table t = make_pmbw_results_table();
  auto add = [&](const char* routine, int threads, std::uint64_t area, double Bps, double access_s) {
    PmbwPoint p;
    p.routine = find_routine(routine);
    p.threads = threads;
    p.layout = thread_layout(area, threads, p.routine->block_bytes());
    p.repeats = 1;
    const double seconds = static_cast<double>(p.bytes()) / Bps;
    p.seconds = {seconds};
    add_pmbw_point(t, {0, "n1"}, p);
    if (access_s > 0) {
      // access time is derived from the same t_min; check it matches what we put in
      EXPECT_NEAR(t.get_double(t.rows() - 1, "thread_access_seconds"), seconds / (static_cast<double>(p.accesses()) / threads), 1e-18);
    }
  };
#if defined(__x86_64__)
  // L1 (32 KiB): areas <= 16 KiB at 100, 110, 120 GB/s; L2 (1 MiB): 64..512 KiB at 50, 60, 70; RAM (>= 32 MiB).
  for (auto [kib, gbs] : std::vector<std::pair<std::uint64_t, double>>{{4, 100}, {8, 110}, {16, 120}, {64, 50}, {128, 60},
                                                                         {512, 70}, {4096, 30}, {32768, 20}, {65536, 22}, {131072, 21}})
    add("ScanRead64PtrUnrollLoop", 1, kib * KiB, gbs * 1e9, 0);
  add("ScanRead32PtrSimpleLoop", 1, 4 * KiB, 999e9, 0);  // narrower: not the one chosen
  add("PermRead64UnrollLoop", 1, 1 * MiB, 1e9, 1);
  add("PermRead64UnrollLoop", 1, 128 * MiB, 0.05e9, 1);
  const PmbwPlateaus p = find_plateaus(t, 0, {32 * KiB, 1 * MiB, 8 * MiB});
  EXPECT_EQ(p.scan_routine, "ScanRead64PtrUnrollLoop");
  EXPECT_EQ(p.threads, 1);
  EXPECT_NEAR(p.l1_Bps, 110e9, 1e3);
  EXPECT_NEAR(p.l2_Bps, 60e9, 1e3);
  EXPECT_NEAR(p.ram_Bps, 21e9, 1e3);  // 32, 64, 128 MiB: 20, 22, 21
  EXPECT_EQ(p.ram_test_bytes, 32 * MiB);
  EXPECT_EQ(p.perm_routine, "PermRead64UnrollLoop");
  EXPECT_EQ(p.perm_area_bytes, 128 * MiB);
  EXPECT_NEAR(p.perm_ram_access_seconds, 8.0 / 0.05e9, 1e-12);  // 8 B per access at 0.05 GB/s: 160 ns
  // A rank without rows: nothing found, NaN plateaus.
  const PmbwPlateaus none = find_plateaus(t, 5, {32 * KiB, 1 * MiB, 8 * MiB});
  EXPECT_TRUE(none.scan_routine.empty());
  EXPECT_TRUE(std::isnan(none.l1_Bps));
  EXPECT_TRUE(std::isnan(none.perm_ram_access_seconds));
#endif
}

// ---- stats lines ----

TEST(PmbwStats, LinesParseBackToTheSameValues) {
  PmbwStatsLine l;
  l.datetime = "2026-11-21 16:37:46";
  l.host = "n-1.cluster";
  l.version = "0.1.0";
  l.funcname = "ScanRead64PtrUnrollLoop";
  l.nthreads = 2;
  l.areasize = 1024;
  l.threadsize = 512;
  l.testsize = 1024;
  l.repeats = 1048576;
  l.testvol = 1073741824;
  l.testaccess = 134217728;
  l.time = 0.085583350000000002;
  l.bandwidth = 1073741824 / l.time;
  l.rate = l.time / 134217728;
  const std::string text = format_stats_line(l);
  EXPECT_EQ(text.rfind("RESULT\tdatetime=2026-11-21 16:37:46\thost=n-1.cluster\tversion=0.1.0\tfuncname=", 0), 0u);
  EXPECT_EQ(parse_stats_line(text), l);
  EXPECT_THROW(parse_stats_line("RESULT\tdatetime=x"), std::invalid_argument);
  EXPECT_THROW(parse_stats_line("NOTRESULT\ta=b"), std::invalid_argument);
  EXPECT_THROW(parse_stats_line(text + "\tbroken"), std::invalid_argument);
}

TEST(PmbwStats, ResultsRowsBecomePmbwsQuantities) {
#if defined(__x86_64__)
  Table t = make_pmbw_results_table();
  PmbwPoint p;
  p.routine = find_routine("PermRead64UnrollLoop");
  p.threads = 2;
  p.layout = thread_layout(4 * KiB, 2, p.routine->block_bytes());
  p.repeats = 10;
  p.seconds = {2e-3, 1e-3, 3e-3};
  add_pmbw_point(t, {1, "n2"}, p);
  const auto lines = stats_lines_from_results(t, "2026-11-21 00:00:00", "0.1.0");
  ASSERT_EQ(lines.size(), 1u);
  const PmbwStatsLine& l = lines[0];
  EXPECT_EQ(l.funcname, "PermRead64UnrollLoop");
  EXPECT_EQ(l.host, "n2");
  EXPECT_EQ(l.nthreads, 2u);
  EXPECT_EQ(l.areasize, 4096u);
  EXPECT_EQ(l.threadsize, 2048u);
  EXPECT_EQ(l.testsize, 4096u);
  EXPECT_EQ(l.repeats, 10u);
  EXPECT_EQ(l.testvol, 40960u);      // testsize x repeats
  EXPECT_EQ(l.testaccess, 5120u);    // testvol / 8 B per access
  EXPECT_DOUBLE_EQ(l.time, 1e-3);    // the best sample
  EXPECT_DOUBLE_EQ(l.bandwidth, 40960 / 1e-3);
  EXPECT_DOUBLE_EQ(l.rate, 1e-3 / 5120);
  EXPECT_EQ(parse_stats_line(format_stats_line(l)), l);
  EXPECT_EQ(t.get_int(0, "samples"), 3);
  EXPECT_DOUBLE_EQ(t.get_double(0, "t_median"), 2e-3);
  EXPECT_DOUBLE_EQ(t.get_double(0, "thread_access_seconds"), 1e-3 / 2560);
#endif
}

}  // namespace
}  // namespace bws::pmbw
