// Host lists are counted before they are expanded, against one limit
// (kMaxHostlistNames): each bracket of "n[0-999999][0-999999]" is small,
// their product (10^12 names) is not. Above the limit a topology file is a
// usage error and SLURM_JOB_NODELIST (metadata only) is kept as written.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <string>

#include "TestSupport.hpp"
#include "core/Errors.hpp"
#include "core/Hostlist.hpp"
#include "model/SwitchTopology.hpp"
#include "run/RunMetadata.hpp"

using namespace bws;

TEST(HostlistLimit, CountsWithoutExpanding) {
  EXPECT_EQ(count_hostlist("n[1-3,5],gpu[01-02]-a,login"), 7u);
  EXPECT_EQ(count_hostlist("r[1-2]n[1-4]"), 8u);
  EXPECT_EQ(count_hostlist("n[0-999999][0-999999]"), 1000000000000u);
  EXPECT_EQ(count_hostlist("a[0-999999][0-999999][0-999999][0-999999]"), UINT64_MAX);  // 10^24: saturated
  EXPECT_EQ(count_hostlist("n[0-18446744073709551615]"), UINT64_MAX);
  EXPECT_THROW(count_hostlist("n[1-"), std::invalid_argument);
  EXPECT_THROW(count_hostlist("n[3-1]"), std::invalid_argument);
  EXPECT_THROW(count_hostlist("n[x]"), std::invalid_argument);
}

TEST(HostlistLimit, ExpandsUpToTheLimitAndRefusesMoreAtOnce) {
  EXPECT_EQ(kMaxHostlistNames, 1000000u);  // stated in docs/design-notes.md
  EXPECT_EQ(expand_hostlist("n[1-999999],m1").size(), 1000000u);
  const auto start = std::chrono::steady_clock::now();
  for (const std::string list : {"n[0-999999][0-999999]", "n[1-1000000],m1", "n[0-600000],m[0-600000]",
                                 "n[0-18446744073709551615]"}) {
    try {
      expand_hostlist(list);
      ADD_FAILURE() << list << " was expanded";
    } catch (const HostlistTooLong& e) {
      EXPECT_NE(std::string(e.what()).find("allowed: at most 1000000"), std::string::npos) << e.what();
    }
  }
  // Refused by counting, not after expanding: well under a second.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(HostlistLimit, ATopologyFileAboveTheLimitIsAUsageError) {
  const std::string one = test::usage_error_of(
      [] { model::SwitchTopology::parse("SwitchName=s1 Nodes=n[0-999999][0-999999]\n", "--links.topology t.conf"); });
  test::expect_one_line_with(one, "--links.topology t.conf, line 1: host list 'n[0-999999][0-999999]' names 1000000000000 hosts");
  // Lines within the limit each, beyond it together.
  const std::string many = test::usage_error_of([] {
    model::SwitchTopology::parse("SwitchName=s1 Nodes=a[0-599999]\nSwitchName=s2 Nodes=b[0-599999]\n", "t.conf");
  });
  test::expect_one_line_with(many, "t.conf, line 2: the file names more than 1000000 hosts and switches");
}

TEST(HostlistLimit, ANodelistAboveTheLimitIsKeptAsWritten) {
  const auto p = run::slurm_provenance({{"SLURM_JOB_NODELIST", "n[0-999999][0-999999]"}});
  EXPECT_EQ(p.at("slurm_nodelist"), "n[0-999999][0-999999]");
  EXPECT_EQ(p.at("slurm_nodes"), "n[0-999999][0-999999]");
  EXPECT_EQ(run::slurm_provenance({{"SLURM_JOB_NODELIST", "n[1-2]"}}).at("slurm_nodes"), "n1,n2");
}
