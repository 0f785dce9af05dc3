// bwreport flags / retest / drain on a survey file whose /flags holds the
// link map's verdicts (a node, a pair "a->b", an uplink "s1->top"), run as
// real processes: the pair's two ends go into the retest host list, the
// uplink names no host (one stderr line instead), nothing is drained for a
// link; and a broken stored switch tree is refused as bad input when the
// flags are computed again.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "TestPrograms.hpp"
#include "core/ResultColumns.hpp"
#include "h5/ResultFile.hpp"
#include "links/LinksTables.hpp"
#include "model/NodeFlags.hpp"
#include "TestSupport.hpp"

using bws::Table;

namespace {

using bws::test::RunResult;

Table link_flags() {
  Table t = bws::model::make_flags_table();
  const auto add = [&](const std::string& host, const std::string& metric, const std::string& reason) {
    t.add_row({{"host", host},          {"cohort", std::string("links")}, {"cohort_nodes", std::int64_t{4}},
               {"metric", metric},      {"value", 1e9},                   {"median", 1e10},
               {"mad", NAN},            {"robust_z", NAN},                {"percent_of_median", 10.0},
               {"threshold", 7.5e9},    {"unit", std::string("B/s")},     {"rule", std::string("fraction")},
               {"reason", reason},      {"retest_values", std::string()}, {"retest_median", NAN},
               {"status", std::string(bws::model::kFlagNotRetested)}});
  };
  add("n3", "links.node_out", "n3: out 10 %, in 98 % of cohort median");
  add("n1->n2", "links.pair", "link n1->n2: send at 10 % of n1's median send");
  add("s1->top", "links.uplink", "uplink of leaf s1 (s1->top): s1->other leaves at 10 % of the median block");
  return t;
}

class BwreportLinkFlags : public bws::test::TempDirTest {
 protected:
  std::string write_survey(const std::function<void(bws::h5::ResultFile&)>& adjust) {
    const std::string path = file("links.h5");
    bws::h5::ResultFile f = bws::h5::ResultFile::create(path, false);
    f.set_attribute("/", "tool_version", std::string("test"));
    f.set_attribute("/", "status", std::string("complete"));
    f.set_attribute("/", "created_utc", std::string("2025-01-31T12:00:00Z"));
    f.set_attribute("/", "n_nodes", std::int64_t{4});
    f.set_attribute("/", "n_ranks", std::int64_t{4});
    adjust(f);
    f.close();
    return path;
  }
  RunResult run(const std::string& args) {
    return bws::test::run_shell(std::string(bws::test::bwreport_program()) + " " + args, file("out.txt"), file("err.txt"));
  }
};

TEST_F(BwreportLinkFlags, RetestListsThePairsEndsAndNamesTheUplinkOnStderr) {
  const std::string path = write_survey([](auto& f) { f.append(link_flags()); });
  const RunResult retest = run("retest " + path);
  EXPECT_EQ(retest.exit_code, 0) << retest.err;
  EXPECT_EQ(retest.out, "n[1-3]\n");
  EXPECT_EQ(std::count(retest.err.begin(), retest.err.end(), '\n'), 1) << retest.err;
  EXPECT_NE(retest.err.find("links.uplink s1->top"), std::string::npos) << retest.err;
  EXPECT_NE(retest.err.find("--tests links"), std::string::npos) << retest.err;

  const RunResult flags = run("flags " + path);
  EXPECT_EQ(flags.exit_code, 0) << flags.err;
  EXPECT_NE(flags.out.find("Flagged nodes (1 of 4): n3\n"), std::string::npos) << flags.out;
  EXPECT_NE(flags.out.find("  links.pair: link n1->n2: send at 10 % of n1's median send; not retested\n"),
            std::string::npos)
      << flags.out;
  EXPECT_NE(flags.out.find("  links.uplink: uplink of leaf s1 (s1->top)"), std::string::npos) << flags.out;

  const RunResult drain = run("drain --unconfirmed " + path);
  EXPECT_EQ(drain.exit_code, 0) << drain.err;
  EXPECT_EQ(drain.out.find("NodeName=n1"), std::string::npos) << drain.out;
  EXPECT_EQ(drain.out.find("NodeName=s1"), std::string::npos) << drain.out;
  EXPECT_NE(drain.out.find("scontrol update NodeName=n3 State=DRAIN"), std::string::npos) << drain.out;
}

TEST_F(BwreportLinkFlags, ABrokenStoredTreeIsRefusedWhenFlagsAreComputedAgain) {
  const std::string path = write_survey([](auto& f) {
    Table nodes = bws::links::make_links_nodes_table(), hosts = bws::links::make_links_hosts_table();
    for (std::int64_t i = 0; i < 4; ++i) {
      const std::string host = std::string("n").append(std::to_string(i));
      nodes.add_row({{"node", i}, {"host", host}, {"rank", i}, {"out_Bps", 1e10}, {"in_Bps", 1e10},
                     {"worst_out_peer", (i + 1) % 4}, {"worst_out_Bps", 1e10}, {"worst_in_peer", (i + 1) % 4},
                     {"worst_in_Bps", 1e10}, {"low_out_peers", std::int64_t{0}}, {"low_in_peers", std::int64_t{0}},
                     {"latency_s", 1e-6}, {"payload_problems", std::int64_t{0}}});
      hosts.add_row({{"index", i}, {"host", host}, {"rank", i}, {"leaf", std::string("s1")}});
    }
    Table switches("links/switches", {bws::text_column("switch", bws::kHostWidth),
                                      bws::text_column("parent", bws::kHostWidth), bws::int_column("leaf_index")});
    switches.add_row({{"switch", std::string("s1")}, {"parent", std::string("gone")}, {"leaf_index", std::int64_t{0}}});
    Table medians("links/leaf_medians", {bws::int_column("node"), bws::text_column("host", bws::kHostWidth)},
                  "/links/leaf_medians_Bps");
    medians.add_row({{"node", std::int64_t{0}}, {"host", std::string("n0")}}, {1e10});
    f.append(nodes);
    f.append(hosts);
    f.append(switches);
    f.append(medians);
  });
  const RunResult flags = run("flags --flags.k 3 " + path);
  EXPECT_EQ(flags.exit_code, 2) << flags.out << flags.err;
  EXPECT_EQ(std::count(flags.err.begin(), flags.err.end(), '\n'), 1) << flags.err;
  EXPECT_NE(flags.err.find("table /links/switches: the parent 'gone' of switch 's1'"), std::string::npos) << flags.err;
}

}  // namespace
