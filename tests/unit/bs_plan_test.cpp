// BS1-BS7 (lib/bs): planning errors and an end-to-end small run.
#include <gtest/gtest.h>

#include "LocalTeam.hpp"
#include "TestSupport.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bs/BsBenchmark.hpp"
#include "bs/BsFit.hpp"
#include "bs/BsKernels.hpp"
#include "bs/BsMesh.hpp"
#include "bs/BsPlan.hpp"
#include "bs/BsResults.hpp"
#include "bs/BsTeamJobs.hpp"
#include "bs/BsTypes.hpp"
#include "core/Config.hpp"
#include "core/ResultColumns.hpp"
#include "core/RunContext.hpp"
#include "topology/PinningPlan.hpp"
#include "topology/Team.hpp"
#include "topology/Topology.hpp"

namespace bws::bs {
namespace {

constexpr std::uint64_t kMiB = 1ull << 20;
const char* const kSmallNode = "numa:1(memory=24GiB) pack:1 l3:1(size=32MiB) l2:2(size=1MiB) l1d:1(size=32KiB) core:1 pu:1";

using test::config_with;

// ---- planning ----

NodeContext node_of(const topo::Topology& t, bool quick = false, int ranks = 1) {
  return NodeContext{t, "node1", 0, ranks, 0, 2, quick, MachineSpeed{}, 0};
}

TEST(BsPlan, DefaultsAndQuick) {
  const topo::Topology t = topo::Topology::synthetic(kSmallNode);
  const BsParams p = plan_bs(Config{}, node_of(t));
  EXPECT_EQ(p.tests.size(), 7u);
  EXPECT_EQ(p.points, 24);
  EXPECT_EQ(p.reps, 20);
  EXPECT_EQ(p.degrees, (std::vector<int>{1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(p.min_bytes, 32768u);
  EXPECT_EQ(p.max_bytes, 16 * 32 * kMiB);  // 16x LLC: room for the plateau above it
  EXPECT_EQ(p.target_bytes.size(), 24u);
  EXPECT_EQ(p.target_bytes.front(), p.min_bytes);
  EXPECT_EQ(p.target_bytes.back(), p.max_bytes);
  EXPECT_EQ(p.vector_points[0].back().entries, p.max_bytes / 16);
  EXPECT_EQ(p.vector_points[4].back().entries, p.max_bytes / 48);
  ASSERT_EQ(p.mesh_sweeps.size(), 7u);
  for (const BsDegreeSweep& s : p.mesh_sweeps)
    for (std::size_t i = 1; i < s.points.size(); ++i)
      EXPECT_GT(s.points[i].elements_per_side, s.points[i - 1].elements_per_side);

  const BsParams q = plan_bs(Config{}, node_of(t, true));
  EXPECT_EQ(q.points, kQuickPoints);
  EXPECT_EQ(q.reps, kQuickReps);
  EXPECT_EQ(q.degrees, (std::vector<int>{1, 4, 7}));
  EXPECT_EQ(q.max_bytes, 8 * 32 * kMiB);  // --quick still reaches past the LLC, for the fit
  EXPECT_EQ(q.fit_min_bytes, 32 * kMiB);  // auto: the LLC
  int fitted_points = 0;
  for (std::uint64_t b : q.target_bytes) fitted_points += b >= q.fit_min_bytes ? 1 : 0;
  EXPECT_GE(fitted_points, 3);
  // Explicit values win over --quick.
  const BsParams e = plan_bs(config_with({{"bs.reps", "3"}, {"bs.degrees", "2-3,9"}}), node_of(t, true));
  EXPECT_EQ(e.reps, 3);
  EXPECT_EQ(e.degrees, (std::vector<int>{2, 3, 9}));
}

TEST(BsPlan, AutoMaximumFitsFortyPercentOfMemory) {
  const topo::Topology t =
      topo::Topology::synthetic("numa:1(memory=1GiB) pack:1 l3:1(size=256MiB) core:2 pu:1");
  const BsParams p = plan_bs(Config{}, node_of(t, false, 2));
  EXPECT_LE(static_cast<double>(p.memory_bytes()) * 2, 0.4 * 1024 * kMiB);
  EXPECT_LT(p.max_bytes, 8 * 256 * kMiB);
}

TEST(BsPlan, BadInputIsOneLineNamingTheOption) {
  const topo::Topology t = topo::Topology::synthetic(kSmallNode);
  struct Case {
    std::map<std::string, std::string> values;
    std::vector<std::string> needles;  // each in the one line
  };
  const Case cases[] = {
      {{{"bs.degrees", "0"}}, {"--bs.degrees", "1..15"}},
      {{{"bs.degrees", "16"}}, {"--bs.degrees", "1..15"}},
      {{{"bs.degrees", "1..20"}}, {"--bs.degrees", "1..15"}},
      {{{"bs.degrees", "x"}}, {"--bs.degrees", "1..15"}},
      {{{"bs.degrees", "5-3"}}, {"--bs.degrees", "is empty"}},
      {{{"bs.min-bytes", "1G"}, {"bs.max-bytes", "1M"}}, {"--bs.min-bytes", "--bs.max-bytes"}},
      {{{"bs.points", "2"}}, {"--bs.points", "3..200"}},
      {{{"bs.fit-min-bytes", "lots"}}, {"--bs.fit-min-bytes", "auto, 0, or a size"}},
      {{{"bs.reps", "0"}}, {"--bs.reps"}},
      {{{"bs.tests", "bs8"}}, {"--bs.tests"}},
      {{{"bs.mask-boundary", "maybe"}}, {"--bs.mask-boundary"}},
      {{{"bs.max-bytes", "30G"}, {"bs.tests", "bs1"}}, {"--bs.max-bytes", "this node has"}},
      {{{"bs.min-bytes", "-5"}}, {"--bs.min-bytes"}},
  };
  for (const Case& c : cases) {
    const std::string message = test::usage_error_of([&] { plan_bs(config_with(c.values), node_of(t)); });
    for (const std::string& needle : c.needles) test::expect_one_line_with(message, needle);
  }
}

TEST(BsPlan, FitMinimumIsAutoZeroOrASize) {
  const topo::Topology t = topo::Topology::synthetic(kSmallNode);
  EXPECT_EQ(plan_bs(config_with({{"bs.fit-min-bytes", "0"}}), node_of(t)).fit_min_bytes, 0u);
  EXPECT_FALSE(plan_bs(config_with({{"bs.fit-min-bytes", "0"}}), node_of(t)).fit_min_bytes_auto);
  EXPECT_EQ(plan_bs(config_with({{"bs.fit-min-bytes", "2M"}}), node_of(t)).fit_min_bytes, 2 * kMiB);
  EXPECT_EQ(plan_bs(config_with({{"bs.fit-min-bytes", "AUTO"}}), node_of(t)).fit_min_bytes, 32 * kMiB);  // the LLC
}

TEST(BsOptions, TheSchemaReadsDegreesAndFitMinimumIntoTypedFields) {
  const BsOptions o = bs_schema().read(config_with({{"bs.degrees", " 7, 1..3 ,2"}, {"bs.fit-min-bytes", "64K"}}), false);
  EXPECT_EQ(o.degrees, (std::vector<int>{1, 2, 3, 7}));  // ascending, each once
  EXPECT_EQ(o.fit_min_bytes, std::optional<std::uint64_t>(65536));
  EXPECT_EQ(o.flag(&BsOptions::degrees), "--bs.degrees");
  EXPECT_FALSE(bs_schema().read(Config{}, false).fit_min_bytes.has_value());  // auto
  EXPECT_EQ(bs_schema().read(Config{}, true).degrees, (std::vector<int>{1, 4, 7}));  // --quick
}

// ---- end to end ----

TEST(BsRun, EndToEndSmallRunReturnsValidRowsAndFits) {
  test::LocalTeam local;
  const auto benchmark = make_bs_benchmark();
  EXPECT_EQ(benchmark->name(), "bs");
  const Config config = config_with({{"bs.min-bytes", "64K"}, {"bs.max-bytes", "2M"}, {"bs.points", "4"},
                                     {"bs.reps", "3"}, {"bs.degrees", "1,3"}});
  test::CountingSync sync;
  const std::vector<Table> tables = local.run(*benchmark, config, local.node(), sync);
  EXPECT_EQ(sync.calls, 1 + 5 * 4 + 2);  // the T0 measurement, per BS1-BS5 size, and per degree
  ASSERT_EQ(tables.size(), 3u);
  const Table& results = tables[0];
  const Table& fits = tables[1];
  const Table& checks = tables[2];
  EXPECT_EQ(results.path(), "bs/results");
  EXPECT_EQ(results.samples_path(), "bs/times");
  EXPECT_EQ(fits.path(), "bs/fits");
  std::size_t mesh_rows = 0;
  for (std::size_t r = 0; r < results.rows(); ++r) {
    EXPECT_EQ(results.get_int(r, "valid"), 1) << r;
    EXPECT_EQ(results.samples(r).size(), 3u);
    EXPECT_GT(results.get_double(r, "bandwidth"), 0);
    EXPECT_LE(results.get_double(r, "t_min"), results.get_double(r, "t_median"));
    EXPECT_LE(results.get_double(r, "t_median"), results.get_double(r, "t_max"));
    if (results.get_int(r, "degree") > 0) {
      ++mesh_rows;
      EXPECT_GT(results.get_int(r, "global_nodes"), 0);
      EXPECT_GT(results.get_int(r, "blocks"), 0);
    }
  }
  EXPECT_EQ(results.rows() - mesh_rows, 5u * 4);
  EXPECT_GT(mesh_rows, 4u);
  EXPECT_EQ(fits.rows(), 5u + 2 * 2);  // BS1-BS5, and BS6/BS7 per degree
  for (std::size_t r = 0; r < fits.rows(); ++r) {
    EXPECT_EQ(fits.get_int(r, "valid"), 1);
    if (fits.get_int(r, "fitted")) {
      EXPECT_GT(fits.get_double(r, "Wmax_Bps"), 0);
      EXPECT_TRUE(std::isfinite(fits.get_double(r, "T0_seconds")));
      EXPECT_GE(fits.get_double(r, "T0_seconds"), 0);
      EXPECT_NEAR(fits.get_double(r, "B08_bytes"),
                  4 * fits.get_double(r, "T0_seconds") * fits.get_double(r, "Wmax_Bps"),
                  1e-9 * std::max(1.0, fits.get_double(r, "B08_bytes")));
    }
  }
  for (std::size_t r = 0; r < checks.rows(); ++r) {
    if (checks.get_string(r, "check") == "bs.validation") {
      EXPECT_EQ(checks.get_int(r, "passed"), 1);
    }
  }

  const std::vector<std::string> lines = make_bs_report()->summary_lines({fits});
  ASSERT_GE(lines.size(), 3u);
  bool has_bs3 = false;
  for (const std::string& l : lines) has_bs3 = has_bs3 || l.find("BS3") != std::string::npos;
  EXPECT_TRUE(has_bs3);
}

}  // namespace
}  // namespace bws::bs
