// pmbw: the size table and thread layouts match pmbw's rules, the plan's
// errors, the plateaus, and the stats lines parse back to the same values.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <vector>

#include "TestSupport.hpp"
#include "pmbw/PmbwBenchmark.hpp"
#include "pmbw/PmbwCpu.hpp"
#include "pmbw/PmbwPlan.hpp"
#include "pmbw/PmbwPlateaus.hpp"
#include "pmbw/PmbwResults.hpp"
#include "pmbw/PmbwRoutines.hpp"
#include "pmbw/PmbwSizes.hpp"
#include "pmbw/PmbwStats.hpp"
#include "topology/Topology.hpp"

namespace bws::pmbw {
namespace {

using test::config_with;
using test::usage_error_of;

constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB;

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

// pmbw's typed options as the schema reads them from these option values.
PmbwOptions options_with(std::map<std::string, std::string> values) {
  return pmbw_schema().read(config_with(std::move(values)), false);
}

std::vector<int> thread_counts(const std::string& text, int max_threads, bool quadratic) {
  return parse_thread_counts(options_with({{"pmbw.threads", text}, {"pmbw.quadratic", quadratic ? "on" : "off"}}),
                             max_threads);
}

std::vector<const PmbwRoutine*> routines(const std::string& text, const PmbwCpuFeatures& cpu) {
  return parse_routines(options_with({{"pmbw.routines", text}}), cpu);
}

TEST(PmbwPlan, ThreadCounts) {
  EXPECT_EQ(thread_counts("auto", 4, false), (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(thread_counts("auto", 6, true), (std::vector<int>{1, 2, 4, 6}));
  EXPECT_EQ(thread_counts("1..8", 8, true), (std::vector<int>{1, 2, 4, 8}));
  EXPECT_EQ(thread_counts("4,1,2,2", 4, false), (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(thread_counts("2-3", 4, false), (std::vector<int>{2, 3}));
  EXPECT_NE(usage_error_of([] { thread_counts("5", 4, false); }).find("--pmbw.threads: 5 threads is out of range"),
            std::string::npos);
  EXPECT_NE(usage_error_of([] { thread_counts("0", 4, false); }).find("1 to the rank's 4 threads"), std::string::npos);
  EXPECT_NE(usage_error_of([] { thread_counts("two", 4, false); }).find("--pmbw.threads"), std::string::npos);
  EXPECT_NE(usage_error_of([] { thread_counts("3..2", 4, false); }).find("is empty"), std::string::npos);
}

TEST(PmbwPlan, ListingIsAskedByTheWordListInAnyCase) {
  EXPECT_TRUE(listing_requested(options_with({{"pmbw.routines", " LIST "}})));
  EXPECT_FALSE(listing_requested(options_with({{"pmbw.routines", "~List"}})));
  EXPECT_FALSE(listing_requested(options_with({})));
  // The listing reads --pmbw.routines alone: another option's value does not block it.
  const auto benchmark = make_pmbw_benchmark();
  EXPECT_TRUE(benchmark->listing(config_with({{"pmbw.routines", "list"}, {"pmbw.reps", "0"}})).has_value());
  EXPECT_FALSE(benchmark->listing(config_with({{"pmbw.reps", "3"}})).has_value());
}

TEST(PmbwPlan, RoutinesByNameFilterAndCpu) {
  PmbwCpuFeatures no_avx;
  no_avx.sse2 = true;
  PmbwCpuFeatures all = no_avx;
  all.avx = all.avx2 = all.avx512 = true;
#if defined(__x86_64__)
  const auto chosen = routines("PermRead64UnrollLoop, ScanRead64PtrUnrollLoop", all);
  ASSERT_EQ(chosen.size(), 2u);
  EXPECT_STREQ(chosen[0]->name, "ScanRead64PtrUnrollLoop");  // table order
  EXPECT_EQ(routines("all", all).size(), 28u);
  EXPECT_EQ(routines("all", no_avx).size(), 18u);  // no 256/512-bit routines
  EXPECT_EQ(routines("~Perm", all).size(), 2u);
  const std::string unknown = usage_error_of([&] { routines("ScanRead64Bogus", all); });
  EXPECT_NE(unknown.find("--pmbw.routines: unknown routine 'ScanRead64Bogus'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("available on this CPU: ScanWrite512PtrSimpleLoop"), std::string::npos) << unknown;
  const std::string cannot = usage_error_of([&] { routines("ScanRead512PtrUnrollLoop", no_avx); });
  EXPECT_NE(cannot.find("ScanRead512PtrUnrollLoop needs AVX-512F"), std::string::npos) << cannot;
  EXPECT_EQ(cannot.find("ScanRead256"), std::string::npos) << cannot;  // not offered as available
  EXPECT_NE(usage_error_of([&] { routines("~Nothing", all); }).find("no routine this CPU runs contains"),
            std::string::npos);
#endif
}

const char* const kNode = "numa:1(memory=4GiB) pack:1 l3:1(size=8MiB) l2:2(size=1MiB) l1d:1(size=32KiB) core:1 pu:1";

TEST(PmbwPlan, SizesMemoryAndErrors) {
#if defined(__x86_64__)
  const topo::Topology t = topo::Topology::synthetic(kNode);
  const NodeContext node{t, "n1", 0, 1, 0, 2, false, MachineSpeed{}, 0};
  PmbwParams p = plan_pmbw(config_with({{"pmbw.routines", "ScanRead64PtrUnrollLoop"}}), node);
  EXPECT_EQ(p.sizes.back(), 1024 * MiB);  // auto: 1 GiB fits in 40% of 4 GiB
  EXPECT_EQ(p.thread_counts, (std::vector<int>{1, 2}));
  EXPECT_EQ(p.reps, 3);
  EXPECT_DOUBLE_EQ(p.min_time_seconds, 1.0);
  // --quick: 4x the 8 MiB LLC = 32 MiB, the short size list, 0.02 s.
  const NodeContext quick{t, "n1", 0, 1, 0, 2, true, MachineSpeed{}, 0};
  p = plan_pmbw(config_with({{"pmbw.routines", "ScanRead64PtrUnrollLoop"}}), quick);
  EXPECT_EQ(p.sizes.back(), 32 * MiB);
  EXPECT_EQ(p.sizes.size(), 9u);
  EXPECT_DOUBLE_EQ(p.min_time_seconds, 0.02);
  EXPECT_EQ(plan_pmbw(config_with({{"pmbw.routines", "ScanRead64PtrUnrollLoop"}, {"pmbw.samples", "7"}}), node).reps,
            7);
  // Bad input: one line naming the option (by an old name, as given).
  const struct {
    std::map<std::string, std::string> values;
    const char* message_part;
  } bad[] = {
      {{{"pmbw.min-bytes", "8M"}, {"pmbw.max-bytes", "1M"}},
       "--pmbw.min-bytes 8.00 MiB is above --pmbw.max-bytes 1.00 MiB"},
      {{{"pmbw.max-bytes", "64G"}}, "--pmbw.max-bytes 64.00 GiB: the areas need"},
      {{{"pmbw.min-size", "8M"}, {"pmbw.max-size", "1M"}},
       "--pmbw.min-size 8.00 MiB is above --pmbw.max-size 1.00 MiB"},
      {{{"pmbw.max-size", "64G"}}, "--pmbw.max-size 64.00 GiB: the areas need"},
      {{{"pmbw.threads", "3"}}, "--pmbw.threads"},
      {{{"pmbw.min-bytes", "5K"}, {"pmbw.max-bytes", "5K"}}, "holds no size of pmbw's table"},
      {{{"pmbw.reps", "0"}}, "--pmbw.reps"},
      {{{"pmbw.min-time", "-1"}}, "--pmbw.min-time"},
  };
  for (const auto& b : bad)
    test::expect_one_line_with(usage_error_of([&] { plan_pmbw(config_with(b.values), node); }), b.message_part);
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
  EXPECT_EQ(t.get_int(0, "reps"), 3);
  EXPECT_DOUBLE_EQ(t.get_double(0, "t_median"), 2e-3);
  EXPECT_DOUBLE_EQ(t.get_double(0, "thread_access_seconds"), 1e-3 / 2560);
#endif
}

}  // namespace
}  // namespace bws::pmbw
