// Slurm support without Slurm: host lists, the provenance of a job's
// environment, the test hooks' variables.
#include <gtest/gtest.h>

#include "core/Hostlist.hpp"
#include "run/RunMetadata.hpp"
#include "run/TestHooks.hpp"

using namespace bws;
using namespace bws::run;

TEST(Hostlist, ExpandsSlurmRanges) {
  EXPECT_EQ(expand_hostlist("n[1-3,5],gpu[01-02]-a,login"),
            (std::vector<std::string>{"n1", "n2", "n3", "n5", "gpu01-a", "gpu02-a", "login"}));
  EXPECT_EQ(expand_hostlist("r[1-2]n[1-2]"), (std::vector<std::string>{"r1n1", "r1n2", "r2n1", "r2n2"}));
  EXPECT_EQ(expand_hostlist("n1"), std::vector<std::string>{"n1"});
  EXPECT_THROW(expand_hostlist("n[1-"), std::invalid_argument);
  EXPECT_THROW(expand_hostlist("n[3-1]"), std::invalid_argument);
}

TEST(Hostlist, CompressesForANodelist) {
  EXPECT_EQ(compress_hostlist({"n3"}), "n3");
  EXPECT_EQ(compress_hostlist({"n5", "n1", "n2", "n3", "n2", "login", "gpu01", "gpu02"}), "n[1-3,5],login,gpu[01-02]");
  for (const std::string list : {"n[1-3,5]", "gpu[08-11]", "a1,b2"})
    EXPECT_EQ(compress_hostlist(expand_hostlist(list)), list);
}

TEST(SlurmProvenance, JobPartitionAndExpandedNodes) {
  const auto p = slurm_provenance({{"SLURM_JOB_ID", "42"},
                                   {"SLURM_JOB_PARTITION", "debug"},
                                   {"SLURM_JOB_NODELIST", "n[1-3]"},
                                   {"SLURM_JOB_NUM_NODES", "3"},
                                   {"HOME", "/root"}});
  EXPECT_EQ(p.at("slurm_job_id"), "42");
  EXPECT_EQ(p.at("slurm_partition"), "debug");
  EXPECT_EQ(p.at("slurm_nodes"), "n1,n2,n3");
  EXPECT_EQ(p.at("slurm_nodelist"), "n[1-3]");
  EXPECT_EQ(p.count("slurm_cluster"), 0u);
  EXPECT_TRUE(slurm_provenance({}).empty());
}

TEST(TestHooks, ParsedFromTheirVariables) {
  const TestHooks h = parse_test_hooks("prepare:1,hang:2,kill-after:stream,bogus", "n3:6");
  EXPECT_EQ(h.fail_prepare_rank, 1);
  EXPECT_EQ(h.hang_rank, 2);
  EXPECT_EQ(h.kill_after_phase, "stream");
  EXPECT_EQ(h.slow_host, "n3");
  EXPECT_DOUBLE_EQ(h.slow_factor, 6);
  const TestHooks none = parse_test_hooks(nullptr, "n3:0.5");
  const TestHooks transient = parse_test_hooks(nullptr, "n3:6:first-pass", "n1:549755813888,bad,n2:x");
  EXPECT_EQ(transient.slow_host, "n3");
  EXPECT_DOUBLE_EQ(transient.slow_factor, 6);
  EXPECT_TRUE(transient.slow_first_pass_only);
  EXPECT_FALSE(parse_test_hooks(nullptr, "n3:6").slow_first_pass_only);
  ASSERT_EQ(transient.fake_memory_bytes.size(), 1u);
  EXPECT_EQ(transient.fake_memory_bytes.at("n1"), std::uint64_t{512} << 30);
  EXPECT_EQ(none.hang_rank, -1);
  EXPECT_TRUE(none.slow_host.empty());  // a factor <= 1 slows nothing
}
