// Topology discovery and pinning plans, on synthetic machines we do not have
// and on this one.
#include <gtest/gtest.h>

#include "TestSupport.hpp"
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "core/Errors.hpp"
#include "topology/PinningPlan.hpp"
#include "topology/Topology.hpp"

namespace bws::topo {
namespace {

// 2 packages x 2 NUMA nodes x 2 cores x 2 PUs: 8 cores, 16 PUs; NUMA node
// i holds cores 2i, 2i+1 (PUs 4i..4i+3).
const std::string kTwoPackages = "pack:2 numa:2 core:2 pu:2";
// 2 packages x 2 NUMA nodes (8 GiB, one 32 MiB L3 each) x 4 cores (1 MiB L2,
// 32 KiB L1d) x 2 PUs: 16 cores, 32 PUs, PUs 8i..8i+7 in NUMA node i.
const std::string kWithCaches =
    "pack:2 numa:2(memory=8GiB) l3:1(size=32MiB) l2:4(size=1MiB) l1d:1(size=32KiB) core:1 pu:2";
constexpr std::uint64_t kGiB = 1ull << 30;
constexpr std::uint64_t kMiB = 1ull << 20;

using bws::test::usage_error_of;

const CacheLevel* cache_level(const TopologyInfo& info, int level) {
  for (const CacheLevel& cache : info.caches) {
    if (cache.level == level) return &cache;
  }
  return nullptr;
}

// ---- discovery on synthetic machines ----

TEST(SyntheticTopology, CountsTheWholeMachine) {
  const Topology topology = Topology::synthetic(kTwoPackages);
  const TopologyInfo& info = topology.info();
  EXPECT_FALSE(topology.is_this_system());
  EXPECT_EQ(info.cpuset, "0-15");
  EXPECT_EQ(info.packages, 2);
  EXPECT_EQ(info.numa_nodes, 4);
  EXPECT_EQ(info.cores, 8);
  EXPECT_EQ(info.pus, 16);
  ASSERT_EQ(info.core_list.size(), 8u);
  for (int i = 0; i < 8; ++i) {
    const Core& core = info.core_list[static_cast<std::size_t>(i)];
    EXPECT_EQ(core.logical_index, i);
    EXPECT_EQ(core.pu_os_indices, (std::vector<int>{2 * i, 2 * i + 1}));
    EXPECT_EQ(core.numa_os_index, i / 2);
    EXPECT_EQ(core.package_logical_index, i / 4);
  }
  ASSERT_EQ(info.numa_list.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(info.numa_list[static_cast<std::size_t>(i)].os_index, i);
}

TEST(SyntheticTopology, FirstPackageOnly) {
  const TopologyInfo info = Topology::synthetic(kTwoPackages, "0-7").info();
  EXPECT_EQ(info.cpuset, "0-7");
  EXPECT_EQ(info.packages, 1);
  EXPECT_EQ(info.numa_nodes, 2);
  EXPECT_EQ(info.cores, 4);
  EXPECT_EQ(info.pus, 8);
}

TEST(SyntheticTopology, TwoCoresOnDifferentPackages) {
  const TopologyInfo info = Topology::synthetic(kTwoPackages, "0,8").info();
  EXPECT_EQ(info.packages, 2);
  EXPECT_EQ(info.numa_nodes, 2);
  EXPECT_EQ(info.cores, 2);
  EXPECT_EQ(info.pus, 2);
  ASSERT_EQ(info.core_list.size(), 2u);
  EXPECT_EQ(info.core_list[0].logical_index, 0);
  EXPECT_EQ(info.core_list[0].pu_os_indices, std::vector<int>{0});
  EXPECT_EQ(info.core_list[1].logical_index, 4);
  EXPECT_EQ(info.core_list[1].pu_os_indices, std::vector<int>{8});
  EXPECT_EQ(info.core_list[1].numa_os_index, 2);
  EXPECT_EQ(info.core_list[1].package_logical_index, 1);
}

TEST(SyntheticTopology, PartlyAllowedCoreListsOnlyAllowedPus) {
  const TopologyInfo info = Topology::synthetic(kTwoPackages, "0-2").info();
  EXPECT_EQ(info.cores, 2);
  EXPECT_EQ(info.pus, 3);
  ASSERT_EQ(info.core_list.size(), 2u);
  EXPECT_EQ(info.core_list[1].pu_os_indices, std::vector<int>{2});
}

TEST(SyntheticTopology, MemoryAndCachesOfTheWholeMachine) {
  const TopologyInfo info = Topology::synthetic(kWithCaches).info();
  EXPECT_EQ(info.cores, 16);
  EXPECT_EQ(info.pus, 32);
  EXPECT_EQ(info.numa_nodes, 4);
  for (const NumaNode& node : info.numa_list) EXPECT_EQ(node.memory_bytes, 8 * kGiB);
  EXPECT_EQ(info.node_memory_bytes, 32 * kGiB);
  EXPECT_EQ(info.local_memory_bytes, 32 * kGiB);

  ASSERT_EQ(info.caches.size(), 3u);
  EXPECT_EQ(info.caches[0].level, 1);
  EXPECT_EQ(info.caches[0].size_bytes, 32u * 1024);
  EXPECT_EQ(info.caches[0].instances, 16);
  EXPECT_EQ(info.caches[0].line_bytes, 64u);
  EXPECT_EQ(info.caches[1].level, 2);
  EXPECT_EQ(info.caches[1].size_bytes, 1 * kMiB);
  EXPECT_EQ(info.caches[1].instances, 16);
  EXPECT_EQ(info.caches[2].level, 3);
  EXPECT_EQ(info.caches[2].size_bytes, 32 * kMiB);
  EXPECT_EQ(info.caches[2].instances, 4);
  EXPECT_EQ(info.l1_bytes, 32u * 1024);
  EXPECT_EQ(info.llc_bytes, 4 * 32 * kMiB);
}

TEST(SyntheticTopology, RestrictedCpusetCountsOnlyIntersectingCachesAndMemory) {
  const TopologyInfo one_node = Topology::synthetic(kWithCaches, "0-7").info();
  EXPECT_EQ(one_node.numa_nodes, 1);
  EXPECT_EQ(one_node.local_memory_bytes, 8 * kGiB);
  EXPECT_EQ(one_node.node_memory_bytes, 32 * kGiB);  // still the whole machine
  EXPECT_EQ(one_node.llc_bytes, 32 * kMiB);
  ASSERT_NE(cache_level(one_node, 3), nullptr);
  EXPECT_EQ(cache_level(one_node, 3)->instances, 1);
  EXPECT_EQ(cache_level(one_node, 2)->instances, 4);

  // Two cores under one L3 count it once; under two L3s, twice.
  EXPECT_EQ(Topology::synthetic(kWithCaches, "0,2").info().llc_bytes, 32 * kMiB);
  EXPECT_EQ(Topology::synthetic(kWithCaches, "0,8").info().llc_bytes, 64 * kMiB);
  EXPECT_EQ(Topology::synthetic(kWithCaches, "0-15").info().llc_bytes, 64 * kMiB);
}

TEST(SyntheticTopology, MachineWithoutCoresTreatsPusAsCores) {
  const Topology topology = Topology::synthetic("pack:2 pu:4");
  EXPECT_EQ(topology.info().cores, 8);
  EXPECT_EQ(topology.info().numa_nodes, 1);
  const auto plan = make_pinning_plan(topology, 8, BindPolicy::Spread);
  std::set<int> pus;
  for (const ThreadSlot& slot : plan) pus.insert(slot.pu_os_index);
  EXPECT_EQ(pus.size(), 8u);
}

TEST(SyntheticTopology, EmptyCpusetMeansAllPus) {
  EXPECT_EQ(Topology::synthetic(kTwoPackages, "").info().pus, 16);
}

TEST(SyntheticTopology, BadCpusetsAreUsageErrors) {
  for (const std::string cpuset : {"abc", "0-3x", "64-70", "7-3", ",", " "}) {
    const std::string message = usage_error_of([&] { Topology::synthetic(kTwoPackages, cpuset); });
    EXPECT_NE(message.find("cpuset '" + cpuset + "'"), std::string::npos) << cpuset << ": " << message;
  }
  EXPECT_NE(usage_error_of([] { Topology::synthetic(kTwoPackages, "64-70"); }).find("no PU"), std::string::npos);
}

TEST(SyntheticTopology, BadDescriptionIsUsageError) {
  EXPECT_THROW(Topology::synthetic("blah:2 pu:2"), UsageError);
}

TEST(SyntheticTopology, MoveKeepsTheTopology) {
  Topology first = Topology::synthetic(kTwoPackages, "0-7");
  Topology second = std::move(first);
  EXPECT_EQ(second.info().cores, 4);
  EXPECT_NE(second.handle(), nullptr);
  EXPECT_EQ(first.handle(), nullptr);  // NOLINT(bugprone-use-after-move): moved-from is empty
  first = Topology::synthetic(kWithCaches);
  EXPECT_EQ(first.info().cores, 16);
  first = std::move(second);
  EXPECT_EQ(first.info().cores, 4);
}

TEST(XmlTopology, RoundTripsASyntheticMachine) {
  const std::string xml = Topology::synthetic(kWithCaches, "0-7").export_xml();
  EXPECT_NE(xml.find("<topology"), std::string::npos);
  const Topology whole = Topology::from_xml(xml);  // the export is the whole machine
  EXPECT_FALSE(whole.is_this_system());
  EXPECT_EQ(whole.info().cores, 16);
  EXPECT_EQ(whole.info().llc_bytes, 4 * 32 * kMiB);
  EXPECT_EQ(whole.info().node_memory_bytes, 32 * kGiB);
  const Topology restricted = Topology::from_xml(xml, "8-15");
  EXPECT_EQ(restricted.info().cores, 4);
  EXPECT_EQ(restricted.info().numa_list.at(0).os_index, 1);
}

TEST(XmlTopology, GarbageIsUsageError) {
  EXPECT_THROW(Topology::from_xml("<not hwloc>"), UsageError);
}

// ---- this machine ----

TEST(RealTopology, DiscoversThisMachine) {
  const Topology topology = Topology::discover();
  const TopologyInfo& info = topology.info();
  EXPECT_TRUE(topology.is_this_system());
  EXPECT_FALSE(info.cpuset.empty());
  EXPECT_GE(info.cores, 1);
  EXPECT_GE(info.pus, info.cores);
  EXPECT_EQ(info.core_list.size(), static_cast<std::size_t>(info.cores));
  EXPECT_GE(info.numa_nodes, 1);
  EXPECT_GE(info.packages, 1);
  for (const Core& core : info.core_list) EXPECT_FALSE(core.pu_os_indices.empty());
  // Never below the kernel's figure (see correct_memory_of_this_machine).
  const auto kernel_bytes = static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) *
                            static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
  EXPECT_GE(info.node_memory_bytes, kernel_bytes);
  EXPECT_GT(info.local_memory_bytes, 0u);
  EXPECT_LE(info.local_memory_bytes, info.node_memory_bytes);
}

TEST(RealTopology, ExportedXmlLoadsAgain) {
  const Topology topology = Topology::discover();
  const std::string xml = topology.export_xml();
  ASSERT_FALSE(xml.empty());
  const Topology again = Topology::from_xml(xml, topology.info().cpuset);
  EXPECT_FALSE(again.is_this_system());
  EXPECT_EQ(again.info().cores, topology.info().cores);
  EXPECT_EQ(again.info().pus, topology.info().pus);
  EXPECT_EQ(again.info().llc_bytes, topology.info().llc_bytes);
}

// ---- pinning plans ----

std::set<int> numa_nodes_of(const std::vector<ThreadSlot>& plan) {
  std::set<int> nodes;
  for (const ThreadSlot& slot : plan) nodes.insert(slot.numa_os_index);
  return nodes;
}

TEST(PinningPlan, CompactFillsTheFirstNumaNodeFirst) {
  const Topology topology = Topology::synthetic(kTwoPackages);
  const auto plan = make_pinning_plan(topology, 3, BindPolicy::Compact);
  ASSERT_EQ(plan.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(plan[static_cast<std::size_t>(i)].thread, i);
    EXPECT_EQ(plan[static_cast<std::size_t>(i)].core_logical_index, i);
    EXPECT_EQ(plan[static_cast<std::size_t>(i)].pu_os_index, 2 * i);
  }
  EXPECT_EQ(plan[0].numa_os_index, 0);
  EXPECT_EQ(plan[1].numa_os_index, 0);
  EXPECT_EQ(plan[2].numa_os_index, 1);
}

TEST(PinningPlan, SpreadCoversNumaNodesThenPackages) {
  const Topology topology = Topology::synthetic(kTwoPackages);
  EXPECT_EQ(numa_nodes_of(make_pinning_plan(topology, 4, BindPolicy::Spread)), (std::set<int>{0, 1, 2, 3}));
  const auto two = make_pinning_plan(topology, 2, BindPolicy::Spread);
  const TopologyInfo& info = topology.info();
  std::set<int> packages;
  for (const ThreadSlot& slot : two) {
    packages.insert(info.core_list[static_cast<std::size_t>(slot.core_logical_index)].package_logical_index);
  }
  EXPECT_EQ(packages, (std::set<int>{0, 1}));
}

TEST(PinningPlan, SpreadIsDeterministic) {
  const Topology topology = Topology::synthetic(kWithCaches);
  const auto first = make_pinning_plan(topology, 5, BindPolicy::Spread);
  const auto second = make_pinning_plan(topology, 5, BindPolicy::Spread);
  ASSERT_EQ(first.size(), second.size());
  for (std::size_t i = 0; i < first.size(); ++i) EXPECT_EQ(first[i].pu_os_index, second[i].pu_os_index);
}

TEST(PinningPlan, EveryThreadOnItsOwnCore) {
  // Includes cpusets with unequal PUs per core and per package.
  for (const std::string cpuset : {"", "0-7", "0,8", "0-7,8,10,12,14", "1-14", "0-8"}) {
    const Topology topology = Topology::synthetic(kTwoPackages, cpuset);
    const TopologyInfo& info = topology.info();
    for (BindPolicy policy : {BindPolicy::Compact, BindPolicy::Spread}) {
      for (int threads = 1; threads <= info.cores; ++threads) {
        const auto plan = make_pinning_plan(topology, threads, policy);
        ASSERT_EQ(plan.size(), static_cast<std::size_t>(threads));
        std::set<int> cores;
        for (const ThreadSlot& slot : plan) {
          cores.insert(slot.core_logical_index);
          const auto core = std::find_if(info.core_list.begin(), info.core_list.end(),
                                         [&](const Core& c) { return c.logical_index == slot.core_logical_index; });
          ASSERT_NE(core, info.core_list.end());
          EXPECT_EQ(slot.pu_os_index, core->pu_os_indices.front());
          EXPECT_EQ(slot.numa_os_index, core->numa_os_index);
        }
        EXPECT_EQ(cores.size(), static_cast<std::size_t>(threads))
            << "cpuset '" << cpuset << "', " << to_string(policy) << ", " << threads << " threads";
      }
    }
  }
}

TEST(PinningPlan, ThreadCountOutsideTheCoresIsUsageError) {
  const Topology topology = Topology::synthetic(kTwoPackages);
  const std::string above = usage_error_of([&] { make_pinning_plan(topology, 9, BindPolicy::Compact); });
  EXPECT_EQ(above, "--threads 9 is above the 8 cores this rank may use (cpuset 0-15); allowed: 1..8");
  const std::string below = usage_error_of([&] { make_pinning_plan(topology, 0, BindPolicy::Spread); });
  EXPECT_NE(below.find("--threads 0"), std::string::npos);
  EXPECT_NE(below.find("1..8"), std::string::npos);
  EXPECT_THROW(make_pinning_plan(topology, 9, BindPolicy::None), UsageError);
}

TEST(PinningPlan, NoneLeavesThreadsUnbound) {
  const auto plan = make_pinning_plan(Topology::synthetic(kTwoPackages), 4, BindPolicy::None);
  ASSERT_EQ(plan.size(), 4u);
  for (const ThreadSlot& slot : plan) {
    EXPECT_EQ(slot.pu_os_index, -1);
    EXPECT_EQ(slot.core_logical_index, -1);
    EXPECT_EQ(slot.numa_os_index, -1);  // four NUMA nodes: not known
  }
  const auto one_node = make_pinning_plan(Topology::synthetic(kTwoPackages, "4-7"), 2, BindPolicy::None);
  EXPECT_EQ(one_node[0].numa_os_index, 1);
}

TEST(BindPolicy, ParsesTheThreeNames) {
  for (BindPolicy policy : {BindPolicy::Compact, BindPolicy::Spread, BindPolicy::None}) {
    EXPECT_EQ(parse_bind_policy(to_string(policy)), policy);
  }
  EXPECT_EQ(usage_error_of([] { parse_bind_policy("x"); }),
            "--bind: unknown policy 'x'; allowed: compact, spread, none");
  EXPECT_THROW(parse_bind_policy("Compact"), UsageError);
  EXPECT_THROW(parse_bind_policy(""), UsageError);
}

}  // namespace
}  // namespace bws::topo
