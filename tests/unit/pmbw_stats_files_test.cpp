// --pmbw.stats: lines exactly as pmbw.cc writes its RESULT lines, and with
// %h/%r one file per host and rank (pmbw's stats2gnuplot plots one host's
// file); a bad pattern is one usage error naming --pmbw.stats.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "TestSupport.hpp"
#include "core/Errors.hpp"
#include "pmbw/PmbwResults.hpp"
#include "pmbw/PmbwRoutines.hpp"
#include "pmbw/PmbwSizes.hpp"
#include "pmbw/PmbwStats.hpp"
#include "pmbw/PmbwStatsFiles.hpp"

using namespace bws;
using namespace bws::pmbw;

namespace {

class PmbwStatsFilesTest : public test::TempDirTest {
 protected:
  PmbwStatsFilesTest() : TempDirTest("bws_pmbw_stats_files") {}
  Config config(const std::string& stats, bool force = false, const std::string& resume = "") const {
    return Config({{"pmbw.stats", stats}, {"out", file("s.h5")}, {"force", force ? "true" : "false"},
                   {"resume", resume}},
                  {});
  }
  static std::vector<std::string> lines_of(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir_)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
};

#if defined(__x86_64__)
// One point of `routine` for a rank: 2 threads over 4 KiB, 10 repeats, best 1 ms.
void add_point(Table& t, int rank, const std::string& host, const char* routine) {
  PmbwPoint p;
  p.routine = find_routine(routine);
  p.threads = 2;
  p.layout = thread_layout(4096, 2, p.routine->block_bytes());
  p.repeats = 10;
  p.seconds = {2e-3, 1e-3};
  add_pmbw_point(t, {rank, host}, p);
}
#endif

}  // namespace

TEST_F(PmbwStatsFilesTest, LineIsPmbwsRESULTLine) {
  PmbwStatsLine l;
  l.datetime = "2026-11-24 21:00:00";
  l.host = "n1";
  l.version = "0.6.3";
  l.funcname = "ScanRead64PtrSimpleLoop";
  l.nthreads = 2;
  l.areasize = 4096;
  l.threadsize = 2048;
  l.testsize = 4096;
  l.repeats = 10;
  l.testvol = 40960;
  l.testaccess = 5120;
  l.time = 0.001;
  l.bandwidth = 40960 / 0.001;
  l.rate = 0.001 / 5120;
  // What pmbw.cc's `result << ... << std::setprecision(20) << runtime` gives
  // for these numbers (C++ streams at precision 20 print as %.20g).
  EXPECT_EQ(format_stats_line(l),
            "RESULT\tdatetime=2026-11-24 21:00:00\thost=n1\tversion=0.6.3\tfuncname=ScanRead64PtrSimpleLoop\t"
            "nthreads=2\tareasize=4096\tthreadsize=2048\ttestsize=4096\trepeats=10\ttestvol=40960\t"
            "testaccess=5120\ttime=0.0010000000000000000208\tbandwidth=40960000\trate=1.9531250000000000936e-07");
  EXPECT_EQ(parse_stats_line(format_stats_line(l)), l);
}

TEST_F(PmbwStatsFilesTest, PatternFieldsExpandAndMatch) {
  EXPECT_EQ(stats_file_of("/d/stats-%h-%r.txt", "n1.cluster", 12), "/d/stats-n1.cluster-12.txt");
  EXPECT_EQ(stats_file_of("/d/%h_%%_%r", "a b/c", 0), "/d/a_b_c_%_0");
  EXPECT_TRUE(matches_stats_pattern("/d/stats-%h-%r.txt", "stats-n1.cluster-12.txt"));
  EXPECT_TRUE(matches_stats_pattern("/d/stats-%h-%r.txt", "stats-n-1-3.txt"));
  EXPECT_FALSE(matches_stats_pattern("/d/stats-%h-%r.txt", "stats-n1-x.txt"));
  EXPECT_FALSE(matches_stats_pattern("/d/stats-%h-%r.txt", "stats--3.txt"));
  EXPECT_FALSE(matches_stats_pattern("/d/stats-%h-%r.txt", "stats-n1-3.txt.part"));
  EXPECT_TRUE(matches_stats_pattern("%r%%", "7%"));
  EXPECT_TRUE(is_stats_pattern("--pmbw.stats", "/d/s-%r"));
  EXPECT_FALSE(is_stats_pattern("--pmbw.stats", "/d/s-100%%.txt"));
  EXPECT_FALSE(is_stats_pattern("--pmbw.stats", "/d/stats.txt"));
}

TEST_F(PmbwStatsFilesTest, BadPatternIsOneUsageErrorNamingTheOption) {
  const std::string unknown = test::usage_error_of([&] { make_pmbw_stats_exporter(config(file("s-%x.txt"))); });
  test::expect_one_line_with(unknown, "--pmbw.stats: '%x' in '" + file("s-%x.txt") + "' is not a field");
  test::expect_one_line_with(unknown, "allowed: %h (host), %r (rank), %%");
  test::expect_one_line_with(test::usage_error_of([&] { make_pmbw_stats_exporter(config(file("s-%"))); }),
                             "--pmbw.stats: '%' in");
  test::expect_one_line_with(
      test::usage_error_of([&] { make_pmbw_stats_exporter(config(file("%h/s.txt"))); }),
      "--pmbw.stats: '%h' in the directory of");
  EXPECT_TRUE(names().empty());  // the checks make nothing
}

TEST_F(PmbwStatsFilesTest, ExistingFileOfThePatternNeedsForce) {
  std::ofstream(file("stats-other-host-7.txt")) << "old\n";
  const std::string pattern = file("stats-%h-%r.txt");
  test::expect_one_line_with(test::usage_error_of([&] { make_pmbw_stats_exporter(config(pattern)); }),
                             "--pmbw.stats: '" + file("stats-other-host-7.txt") + "' exists");
  EXPECT_NE(make_pmbw_stats_exporter(config(pattern, true)), nullptr);
  EXPECT_NE(make_pmbw_stats_exporter(config(pattern, false, file("s.h5"))), nullptr);  // a resume appends
}

#if defined(__x86_64__)
TEST_F(PmbwStatsFilesTest, OneFilePerHostAndRank) {
  const auto exporter = make_pmbw_stats_exporter(config(file("stats-%h-%r.txt")));
  ASSERT_NE(exporter, nullptr);
  exporter->start(ExportStart::Fresh);
  Table batch1 = make_pmbw_results_table();  // ranks arrive in batches: ranks 0 and 1, then 2
  add_point(batch1, 0, "n1", "ScanRead64PtrSimpleLoop");
  add_point(batch1, 0, "n1", "ScanWrite64PtrSimpleLoop");
  add_point(batch1, 1, "n1", "ScanRead64PtrSimpleLoop");
  Table batch2 = make_pmbw_results_table();
  add_point(batch2, 2, "n2", "PermRead64UnrollLoop");
  exporter->consume(batch1);
  exporter->consume(batch2);
  // Until the phase is complete, the lines wait in the staging files.
  EXPECT_TRUE(lines_of(file("stats-n1-0.txt")).empty());
  exporter->finish(true);
  EXPECT_EQ(names(), (std::vector<std::string>{"stats-n1-0.txt", "stats-n1-1.txt", "stats-n2-2.txt"}));
  const auto r0 = lines_of(file("stats-n1-0.txt"));
  ASSERT_EQ(r0.size(), 2u);
  EXPECT_EQ(parse_stats_line(r0[0]).funcname, "ScanRead64PtrSimpleLoop");
  EXPECT_EQ(parse_stats_line(r0[1]).funcname, "ScanWrite64PtrSimpleLoop");
  EXPECT_EQ(parse_stats_line(r0[0]).host, "n1");
  const auto r2 = lines_of(file("stats-n2-2.txt"));
  ASSERT_EQ(r2.size(), 1u);
  const PmbwStatsLine l = parse_stats_line(r2[0]);
  EXPECT_EQ(l.host, "n2");
  EXPECT_EQ(l.funcname, "PermRead64UnrollLoop");
  EXPECT_EQ(l.testvol, 40960u);  // 4 KiB x 10 repeats
  EXPECT_DOUBLE_EQ(l.time, 1e-3);

  // A resumed run appends to the files it touches.
  const auto resumed = make_pmbw_stats_exporter(config(file("stats-%h-%r.txt"), false, file("s.h5")));
  resumed->start(ExportStart::Resume);
  Table again = make_pmbw_results_table();
  add_point(again, 2, "n2", "PermRead64SimpleLoop");
  resumed->consume(again);
  resumed->finish(true);
  EXPECT_EQ(lines_of(file("stats-n2-2.txt")).size(), 2u);
  EXPECT_EQ(lines_of(file("stats-n1-0.txt")).size(), 2u);
}

TEST_F(PmbwStatsFilesTest, WithoutAPatternOneFileHoldsEveryRank) {
  const auto exporter = make_pmbw_stats_exporter(config(file("stats.txt")));
  exporter->start(ExportStart::Fresh);
  Table t = make_pmbw_results_table();
  add_point(t, 0, "n1", "ScanRead64PtrSimpleLoop");
  add_point(t, 1, "n2", "ScanRead64PtrSimpleLoop");
  exporter->consume(t);
  exporter->finish(true);
  EXPECT_EQ(names(), (std::vector<std::string>{"stats.txt"}));
  const auto lines = lines_of(file("stats.txt"));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(parse_stats_line(lines[0]).host, "n1");
  EXPECT_EQ(parse_stats_line(lines[1]).host, "n2");
}
#endif
