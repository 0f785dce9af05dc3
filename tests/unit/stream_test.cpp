// STREAM (lib/stream): byte accounting, kernels, validation, planning on
// synthetic machines, an end-to-end run on this machine's Team, the node
// summary and the report.
#include <gtest/gtest.h>

#include "TestSupport.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/Config.hpp"
#include "core/Errors.hpp"
#include "core/ResultColumns.hpp"
#include "core/RunContext.hpp"
#include "stream/StreamBenchmark.hpp"
#include "stream/StreamKernelTable.hpp"
#include "stream/StreamKernels.hpp"
#include "stream/StreamLayout.hpp"
#include "stream/StreamPlan.hpp"
#include "stream/StreamTables.hpp"
#include "stream/StreamValidation.hpp"
#include "topology/PinningPlan.hpp"
#include "topology/Team.hpp"
#include "topology/Topology.hpp"

namespace bws::stream {
namespace {

constexpr std::uint64_t kMiB = 1ull << 20;
constexpr std::uint64_t kGiB = 1ull << 30;

// ---- byte accounting ----

TEST(StreamBytes, WeightsTimesElementsTimesElementSize) {
  EXPECT_EQ(kernel_bytes(StreamKernel::Copy, 1000, 8), 2u * 1000 * 8);
  EXPECT_EQ(kernel_bytes(StreamKernel::Scale, 1000, 8), 2u * 1000 * 8);
  EXPECT_EQ(kernel_bytes(StreamKernel::Add, 1000, 8), 3u * 1000 * 8);
  EXPECT_EQ(kernel_bytes(StreamKernel::Triad, 1000, 8), 3u * 1000 * 8);
  EXPECT_EQ(kernel_bytes(StreamKernel::Triad, 10000000, 4), 3u * 10000000 * 4);
  EXPECT_EQ(kernel_bytes(StreamKernel::Copy, 1ull << 32, 8), 2ull * (1ull << 32) * 8);  // no 32-bit overflow
}

TEST(StreamBytes, TableIsStreamOrderAndCountsEachArrayOnce) {
  const std::vector<std::string> labels = {"Copy", "Scale", "Add", "Triad"};
  for (std::size_t i = 0; i < kStreamKernels.size(); ++i) {
    EXPECT_EQ(kStreamKernels[i].label, labels[i]);
    EXPECT_EQ(static_cast<std::size_t>(kStreamKernels[i].kernel), i);
    EXPECT_EQ(kStreamKernels[i].byte_weight, kStreamKernels[i].arrays_read + 1);
  }
  EXPECT_EQ(kernel_spec(StreamKernel::Copy).written, StreamArray::C);
  EXPECT_EQ(kernel_spec(StreamKernel::Scale).written, StreamArray::B);
  EXPECT_EQ(kernel_spec(StreamKernel::Add).written, StreamArray::C);
  EXPECT_EQ(kernel_spec(StreamKernel::Triad).written, StreamArray::A);
}

// ---- kernels ----

template <class T>
class StreamKernelTest : public ::testing::Test {};
using ElementTypes = ::testing::Types<double, float>;
TYPED_TEST_SUITE(StreamKernelTest, ElementTypes);

// Runs `kernel` on [begin, end) of arrays whose bases are `misalign` elements
// past a 64-byte boundary, and checks every element: inside the range the
// kernel's value, outside it untouched.
template <class T>
void check_kernel(StreamKernel kernel, StoreKind stores, std::size_t misalign, std::size_t begin, std::size_t end) {
  const std::size_t n = end + 9;
  // Each array gets its own misalignment so source and destination differ.
  std::vector<T> storage_a(n + 64), storage_b(n + 64), storage_c(n + 64);
  auto aligned = [](std::vector<T>& v, std::size_t skew) {
    auto p = reinterpret_cast<std::uintptr_t>(v.data());
    p = (p + 63) / 64 * 64;
    return reinterpret_cast<T*>(p) + skew;
  };
  StreamArrays<T> x{aligned(storage_a, misalign), aligned(storage_b, (misalign + 1) % 7),
                    aligned(storage_c, (misalign + 3) % 5)};
  for (std::size_t j = 0; j < n; ++j) {
    x.a[j] = static_cast<T>(j % 97 + 1);
    x.b[j] = static_cast<T>(j % 31 + 2);
    x.c[j] = static_cast<T>(j % 13 + 3);
  }
  const std::vector<T> a0(x.a, x.a + n), b0(x.b, x.b + n), c0(x.c, x.c + n);
  run_stream_kernel<T>(kernel, stores, x, begin, end);
  const T s = static_cast<T>(kStreamScalar);
  for (std::size_t j = 0; j < n; ++j) {
    const bool in = j >= begin && j < end;
    T ea = a0[j], eb = b0[j], ec = c0[j];
    if (in) {
      switch (kernel) {
        case StreamKernel::Copy:
          ec = a0[j];
          break;
        case StreamKernel::Scale:
          eb = s * c0[j];
          break;
        case StreamKernel::Add:
          ec = a0[j] + b0[j];
          break;
        case StreamKernel::Triad:
          ea = b0[j] + s * c0[j];
          break;
      }
    }
    // Small integers: exact in both types, with or without FMA.
    ASSERT_EQ(x.a[j], ea) << kernel_spec(kernel).label << " " << store_name(stores) << " a[" << j << "]";
    ASSERT_EQ(x.b[j], eb) << kernel_spec(kernel).label << " " << store_name(stores) << " b[" << j << "]";
    ASSERT_EQ(x.c[j], ec) << kernel_spec(kernel).label << " " << store_name(stores) << " c[" << j << "]";
  }
}

TYPED_TEST(StreamKernelTest, AllKernelsBothStoresOddLengthsAndMisalignedStarts) {
  std::vector<StoreKind> stores = {StoreKind::Normal};
  if (kHaveNontemporalKernels) stores.push_back(StoreKind::Nontemporal);
  const std::vector<std::pair<std::size_t, std::size_t>> ranges = {{0, 0},  {0, 1},    {3, 4},     {0, 7},   {1, 18},
                                                                   {5, 38}, {0, 1000}, {13, 1037}, {7, 4103}};
  for (StoreKind st : stores)
    for (const StreamKernelSpec& k : kStreamKernels)
      for (std::size_t misalign : {0, 1, 3})
        for (const auto& [begin, end] : ranges) check_kernel<TypeParam>(k.kernel, st, misalign, begin, end);
}

TEST(StreamKernels, NontemporalInstructionSetIsNamed) {
  if (kHaveNontemporalKernels)
    EXPECT_NE(nontemporal_instruction_set(), "none");
  else
    EXPECT_EQ(nontemporal_instruction_set(), "none");
}

// ---- validation ----

TEST(StreamValidation, ReplayOfTwoRepetitions) {
  // a=2; then (c=a, b=3c, c=a+b, a=b+3c) twice: (a,b,c) = (30,6,8), (450,90,120).
  const StreamExpected d = stream_expected_values<double>(2);
  EXPECT_EQ(d.a, 450);
  EXPECT_EQ(d.b, 90);
  EXPECT_EQ(d.c, 120);
  const StreamExpected f = stream_expected_values<float>(2);
  EXPECT_EQ(f.a, 450);
  EXPECT_EQ(f.b, 90);
  EXPECT_EQ(f.c, 120);
}

TEST(StreamValidation, ReplayOfTwentyRepetitions) {
  // Each repetition multiplies a by 15; b = 3 and c = 4 times the a before it.
  const long double a19 = 2.0L * std::pow(15.0L, 19);
  const StreamExpected d = stream_expected_values<double>(20);
  EXPECT_NEAR(d.a / static_cast<double>(15 * a19), 1.0, 1e-15);
  EXPECT_NEAR(d.b / static_cast<double>(3 * a19), 1.0, 1e-15);
  EXPECT_NEAR(d.c / static_cast<double>(4 * a19), 1.0, 1e-15);
  const StreamExpected f = stream_expected_values<float>(20);
  EXPECT_NEAR(f.a / static_cast<double>(15 * a19), 1.0, 1e-6);
  EXPECT_NEAR(f.b / static_cast<double>(3 * a19), 1.0, 1e-6);
  EXPECT_NEAR(f.c / static_cast<double>(4 * a19), 1.0, 1e-6);
}

TEST(StreamValidation, LimitsAreStream510Epsilons) {
  EXPECT_EQ(stream_error_limit<double>(), 1e-13);
  EXPECT_EQ(stream_error_limit<float>(), 1e-6);
}

template <class T>
class StreamValidationTest : public ::testing::Test {};
TYPED_TEST_SUITE(StreamValidationTest, ElementTypes);

TYPED_TEST(StreamValidationTest, CorrectArraysPassAndOneCorruptElementIsNamed) {
  using T = TypeParam;
  constexpr std::size_t n = 1000;
  constexpr int ntimes = 20;
  const StreamExpected e = stream_expected_values<T>(ntimes);
  for (StreamArray bad : {StreamArray::A, StreamArray::B, StreamArray::C}) {
    std::vector<T> a(n, static_cast<T>(e.a)), b(n, static_cast<T>(e.b)), c(n, static_cast<T>(e.c));
    const StreamValidation good = validate_stream_arrays(a.data(), b.data(), c.data(), n, ntimes);
    EXPECT_TRUE(good.passed());
    for (const ArrayValidation& v : good.arrays) EXPECT_EQ(v.avg_rel_error, 0);

    std::vector<T>& target = bad == StreamArray::A ? a : bad == StreamArray::B ? b : c;
    target[417] = static_cast<T>(e.of(bad) * 1.5);  // 50% off in one element of 1000
    const StreamValidation v = validate_stream_arrays(a.data(), b.data(), c.data(), n, ntimes);
    EXPECT_FALSE(v.passed());
    for (const ArrayValidation& r : v.arrays) {
      if (r.array == bad) {
        EXPECT_FALSE(r.passed) << array_letter(bad);
        EXPECT_NEAR(r.avg_rel_error, 0.5 / n, 0.5 / n * 1e-5) << array_letter(bad);
        EXPECT_EQ(r.limit, stream_error_limit<T>());
        EXPECT_DOUBLE_EQ(r.expected, e.of(bad));
      } else {
        EXPECT_TRUE(r.passed) << array_letter(r.array);
      }
    }
  }
}

TEST(StreamValidation, NonFiniteValuesFailAndOverflowedExpectationsStillCheck) {
  // Float overflows after 33 repetitions: expected values are +inf, and an
  // element that kept a finite value is caught instead of dividing inf by inf.
  const StreamExpected e = stream_expected_values<float>(40);
  ASSERT_TRUE(std::isinf(e.a));
  std::vector<float> a(100, INFINITY), b(100, INFINITY), c(100, INFINITY);
  EXPECT_TRUE(validate_stream_arrays(a.data(), b.data(), c.data(), 100, 40).passed());
  b[3] = 1.0f;
  EXPECT_FALSE(validate_stream_arrays(a.data(), b.data(), c.data(), 100, 40).of(StreamArray::B).passed);

  const StreamExpected d = stream_expected_values<double>(3);
  std::vector<double> x(10, d.a), y(10, d.b), z(10, d.c);
  z[0] = NAN;
  const StreamValidation v = validate_stream_arrays(x.data(), y.data(), z.data(), 10, 3);
  EXPECT_FALSE(v.of(StreamArray::C).passed);
  EXPECT_TRUE(std::isinf(v.of(StreamArray::C).avg_rel_error));
}

// ---- layout ----

TEST(StreamLayout, ArraysAreLineAlignedAndOffsetWithinTheirPages) {
  const StreamLayout l = make_stream_layout(1000003, 8, 256);
  EXPECT_EQ(l.array_bytes, 8000024u);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(l.array_begin_bytes[k] % 64, 0u);
    EXPECT_EQ(l.array_begin_bytes[k] % kPageBytes, k * 256);
  }
  EXPECT_GE(l.array_begin_bytes[1], l.array_begin_bytes[0] + l.array_bytes);
  EXPECT_GE(l.array_begin_bytes[2], l.array_begin_bytes[1] + l.array_bytes);
  EXPECT_EQ(l.total_bytes, l.array_begin_bytes[2] + l.array_bytes);
  EXPECT_EQ(make_stream_layout(1024, 8, 0).array_begin_bytes[2] % kPageBytes, 0u);
}

// ---- plan ----

// One package, 2 cores under one 32 MiB L3, 24 GiB: this machine kind.
const char* const kSmallNode = "numa:1(memory=24GiB) pack:1 l3:1(size=32MiB) core:2 pu:1";
// 2 packages, 2 x 8 GiB, a 128 MiB L3 per package, 64 cores.
const char* const kManyCoreNode = "pack:2 numa:1(memory=8GiB) l3:1(size=128MiB) core:32 pu:1";

NodeContext node_of(const topo::Topology& topology, int ranks_on_node = 1, bool quick = false) {
  return NodeContext{topology, "node1", 0, ranks_on_node, 0, 2, quick};
}

Config config_with(std::map<std::string, std::string> values) {
  Config config;
  for (auto& [k, v] : values) config.set(k, v);
  return config;
}

TEST(StreamPlan, AutoSizeIsFourTimesTheLlcAndAtLeastTenMillion) {
  const topo::Topology topology = topo::Topology::synthetic(kSmallNode);
  ASSERT_EQ(topology.info().llc_bytes, 32 * kMiB);
  const StreamParams p = plan_stream(Config(), node_of(topology));
  EXPECT_TRUE(p.elements_auto);
  EXPECT_EQ(p.elements, 4 * 32 * kMiB / sizeof(double));  // 16 Mi elements > 10^7
  EXPECT_GE(p.elements * sizeof(double), 4 * topology.info().llc_bytes);
  EXPECT_GE(p.elements, 10000000u);
  EXPECT_EQ(p.ntimes, 20);
  ASSERT_EQ(p.runs.size(), 1u);
  EXPECT_EQ(p.runs[0].type, StreamType::Double);
  if (kHaveNontemporalKernels) {
    EXPECT_EQ(p.runs[0].stores, StoreKind::Nontemporal);  // 384 MiB >> 32 MiB LLC
  }
  EXPECT_GE(p.buffer_bytes, 3 * p.elements * sizeof(double));

  // A small LLC: STREAM's 10^7 is the floor.
  const topo::Topology small_llc = topo::Topology::synthetic("numa:1(memory=24GiB) pack:1 l3:1(size=4MiB) core:2 pu:1");
  EXPECT_EQ(plan_stream(Config(), node_of(small_llc)).elements, 10000000u);

  // Float only: 4 x LLC in floats.
  EXPECT_EQ(plan_stream(config_with({{kTypeOption, "float"}}), node_of(topology)).elements, 4 * 32 * kMiB / 4);
  // Both: sized by the largest type, both types use the same element count.
  const StreamParams both = plan_stream(config_with({{kTypeOption, "both"}}), node_of(topology));
  EXPECT_EQ(both.elements, 4 * 32 * kMiB / 8);
  ASSERT_EQ(both.runs.size(), 2u);
  EXPECT_EQ(both.runs[0].type, StreamType::Double);
  EXPECT_EQ(both.runs[1].type, StreamType::Float);
  EXPECT_EQ(both.buffer_bytes, both.runs[0].layout.total_bytes);
}

TEST(StreamPlan, AutoSizeIsCappedAtFortyPercentOfNodeMemoryWithManyRanks) {
  const topo::Topology topology = topo::Topology::synthetic(kManyCoreNode);
  const topo::TopologyInfo& info = topology.info();
  ASSERT_EQ(info.node_memory_bytes, 16 * kGiB);
  ASSERT_EQ(info.llc_bytes, 2 * 128 * kMiB);
  // One rank: 4 x 256 MiB / 8 = 128 Mi elements, 3 GiB in all < 40% of 16 GiB.
  EXPECT_EQ(plan_stream(Config(), node_of(topology, 1)).elements, 4 * 256 * kMiB / 8);
  // 64 ranks per node would need 192 GiB: capped.
  const StreamParams p = plan_stream(Config(), node_of(topology, 64));
  const double limit = 0.4 * static_cast<double>(info.node_memory_bytes);
  EXPECT_LE(64.0 * 3 * p.elements * sizeof(double), limit);
  EXPECT_GT(64.0 * 3 * (p.elements + 1) * sizeof(double), limit);
  EXPECT_LT(p.elements, 10000000u);
}

TEST(StreamPlan, ExplicitElementsOptionsAndQuick) {
  const topo::Topology topology = topo::Topology::synthetic(kSmallNode);
  const StreamParams p = plan_stream(config_with({{kElementsOption, "64M"},
                                                  {kTypeOption, "float,double"},
                                                  {kNtimesOption, "7"},
                                                  {kStoresOption, "normal"},
                                                  {kOffsetOption, "512"}}),
                                     node_of(topology));
  EXPECT_FALSE(p.elements_auto);
  EXPECT_EQ(p.elements, 64 * kMiB);
  EXPECT_EQ(p.ntimes, 7);
  EXPECT_EQ(p.offset_bytes, 512u);
  ASSERT_EQ(p.runs.size(), 2u);
  EXPECT_EQ(p.runs[0].type, StreamType::Float);
  EXPECT_EQ(p.runs[1].type, StreamType::Double);
  for (const StreamTypeRun& r : p.runs) EXPECT_EQ(r.stores, StoreKind::Normal);
  EXPECT_EQ(plan_stream(config_with({{kElementsOption, "1e7"}}), node_of(topology)).elements, 10000000u);

  // Arrays that fit in the LLC keep normal stores under auto.
  const StreamParams in_cache = plan_stream(config_with({{kElementsOption, "4096"}}), node_of(topology));
  EXPECT_EQ(in_cache.runs[0].stores, StoreKind::Normal);

  // --quick shortens the default repetitions, not explicit ones.
  EXPECT_EQ(plan_stream(Config(), node_of(topology, 1, true)).ntimes, kQuickNtimes);
  EXPECT_EQ(plan_stream(config_with({{kNtimesOption, "20"}}), node_of(topology, 1, true)).ntimes, 20);

  const std::string d = describe_stream(p);
  EXPECT_NE(d.find("float+double"), std::string::npos) << d;
  EXPECT_NE(d.find("67108864 elements/array"), std::string::npos) << d;
  EXPECT_NE(d.find("MiB/rank"), std::string::npos) << d;
  EXPECT_NE(d.find("normal stores"), std::string::npos) << d;
}

using bws::test::usage_error_of;

TEST(StreamPlan, EveryBadValueIsAUsageErrorNamingTheOption) {
  const topo::Topology topology = topo::Topology::synthetic(kSmallNode);
  const std::vector<std::pair<const char*, std::string>> bad = {
      {kElementsOption, "abc"},   {kElementsOption, "100"}, {kElementsOption, "-5"},
      {kElementsOption, "0"},     {kElementsOption, "4G"},  {kElementsOption, "1.5"},
      {kTypeOption, "int"},       {kTypeOption, ""},        {kTypeOption, "double,"},
      {kNtimesOption, "1"},       {kNtimesOption, "0"},     {kNtimesOption, "abc"},
      {kNtimesOption, "1000001"}, {kNtimesOption, "2.5"},   {kNtimesOption, "99999999999999999999999"},
      {kStoresOption, "fast"},    {kOffsetOption, "100"},   {kOffsetOption, "4096"},
      {kOffsetOption, "-64"},     {kOffsetOption, "abc"},
  };
  for (const auto& [option, value] : bad) {
    const std::string message = usage_error_of([&] {
      plan_stream(config_with({{option, value}}), node_of(topology, 2));
    });
    EXPECT_NE(message.find(std::string("--") + option), std::string::npos) << option << "=" << value << ": " << message;
    EXPECT_NE(message.find("allowed"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  EXPECT_EQ(usage_error_of([&] {
              plan_stream(config_with({{kTypeOption, "int"}}), node_of(topology));
            }),
            "--stream.type: unknown type 'int'; allowed: double, float, both (or a comma list such as double,float)");
  EXPECT_EQ(usage_error_of([&] {
              plan_stream(config_with({{kNtimesOption, "1"}}), node_of(topology));
            }),
            "--stream.ntimes: '1' is out of range; allowed: 2..250");
  // Float overflows after 33 repetitions of STREAM's growing values.
  EXPECT_EQ(usage_error_of([&] {
              plan_stream(config_with({{kNtimesOption, "40"}, {kTypeOption, "both"}}), node_of(topology));
            }),
            "--stream.ntimes: '40' is out of range; allowed: 2..30");

  // 4G doubles: 3 x 32 GiB on each of 2 ranks do not fit in 24 GiB.
  const std::string too_big = usage_error_of([&] {
    plan_stream(config_with({{kElementsOption, "4G"}}), node_of(topology, 2));
  });
  EXPECT_NE(too_big.find("--stream.elements 4G: 3 arrays of 32.00 GiB on each of 2 ranks need 192.00 GiB; "
                         "this node has 24.00 GiB"),
            std::string::npos)
      << too_big;
  EXPECT_NE(too_big.find("allowed: 1024.."), std::string::npos) << too_big;
}

TEST(StreamPlan, LargestAllowedElementCountFits) {
  const topo::Topology topology = topo::Topology::synthetic(kSmallNode);
  // Read the maximum from the message and check it plans and its successor does not.
  const std::string message = usage_error_of([&] {
    plan_stream(config_with({{kElementsOption, "4G"}}), node_of(topology, 2));
  });
  const std::size_t from = message.find("1024..") + 6;
  const std::uint64_t max = std::stoull(message.substr(from));
  const StreamParams p = plan_stream(config_with({{kElementsOption, std::to_string(max)}}), node_of(topology, 2));
  EXPECT_LE(2 * p.buffer_bytes, topology.info().node_memory_bytes);
  EXPECT_NE(usage_error_of([&] {
              plan_stream(config_with({{kElementsOption, std::to_string(max + 1000)}}), node_of(topology, 2));
            }),
            "(no UsageError)");
}

// ---- end to end on this machine ----

class RecordingProgress final : public Progress {
 public:
  void report(std::string_view stage, double fraction) override {
    stages.emplace_back(stage);
    fractions.push_back(fraction);
  }
  std::vector<std::string> stages;
  std::vector<double> fractions;
};

class CountingNodeSync final : public NodeSync {
 public:
  void barrier() override { ++calls; }
  int calls = 0;
};

TEST(StreamRun, EndToEndOnThisMachinesTeam) {
  const topo::Topology topology = topo::Topology::discover();
  const int threads = std::min(2, topology.info().cores);
  topo::Team team(topology, topo::make_pinning_plan(topology, threads, topo::BindPolicy::Compact));
  const NodeContext node{topology, "thishost", 3, 1, 0, threads, false};

  for (const char* stores : {"normal", "nontemporal"}) {
    if (std::string(stores) == "nontemporal" && !kHaveNontemporalKernels) continue;
    const auto benchmark = make_stream_benchmark();
    EXPECT_EQ(benchmark->name(), "stream");
    const Config config = config_with(
        {{kElementsOption, "100000"}, {kNtimesOption, "3"}, {kTypeOption, "both"}, {kStoresOption, stores}});
    const auto planned = benchmark->plan(config, node);
    EXPECT_GE(planned->memory_bytes(), 3u * 100000 * 8);
    planned->prepare(team);
    RecordingProgress progress;
    CountingNodeSync sync;
    RunContext context{progress, sync};
    const std::vector<Table> tables = planned->run(team, context);
    planned->release();

    EXPECT_EQ(sync.calls, 2 * 3 * 4);  // per type, repetition and kernel
    ASSERT_FALSE(progress.fractions.empty());
    EXPECT_DOUBLE_EQ(progress.fractions.back(), 1.0);
    EXPECT_EQ(progress.stages.front(), "stream double");
    EXPECT_EQ(progress.stages.back(), "stream float");

    ASSERT_EQ(tables.size(), 2u);
    const Table& results = tables[0];
    EXPECT_EQ(results.path(), "stream/results");
    EXPECT_EQ(results.samples_path(), "stream/times");
    ASSERT_EQ(results.rows(), 8u);
    for (std::size_t r = 0; r < results.rows(); ++r) {
      const std::string what = results.get_string(r, "type") + " " + results.get_string(r, "kernel");
      EXPECT_EQ(results.get_string(r, "kernel"), kStreamKernels[r % 4].label);
      EXPECT_EQ(results.get_string(r, "type"), r < 4 ? "double" : "float");
      EXPECT_EQ(results.get_string(r, "stores"), stores);
      EXPECT_EQ(results.get_string(r, "backend"), "cpu");
      EXPECT_EQ(results.get_string(r, "host"), "thishost");
      EXPECT_EQ(results.get_int(r, "rank"), 3);
      EXPECT_EQ(results.get_int(r, "threads"), threads);
      EXPECT_EQ(results.get_int(r, "elements"), 100000);
      EXPECT_EQ(results.get_int(r, "ntimes"), 3);
      EXPECT_EQ(results.get_int(r, "valid"), 1) << what;
      EXPECT_EQ(results.get_double(r, "avg_rel_error"), 0) << what;
      const std::size_t size = r < 4 ? 8 : 4;
      EXPECT_EQ(results.get_int(r, "bytes"),
                static_cast<std::int64_t>(kStreamKernels[r % 4].byte_weight * 100000 * size));
      ASSERT_EQ(results.samples(r).size(), 3u);
      const double t_min = results.get_double(r, "t_min");
      EXPECT_EQ(t_min, std::min(results.samples(r)[1], results.samples(r)[2]));
      EXPECT_LE(t_min, results.get_double(r, "t_avg"));
      EXPECT_LE(results.get_double(r, "t_avg"), results.get_double(r, "t_max"));
      const double bw = results.get_double(r, "bandwidth");
      EXPECT_DOUBLE_EQ(bw, results.get_int(r, "bytes") / t_min);
      EXPECT_GT(bw, 1e8) << what;             // anything slower is broken
      EXPECT_LT(bw, threads * 1e12) << what;  // the rate ceiling
    }
    const Table& checks = tables[1];
    EXPECT_EQ(checks.path(), kChecksPath);
    ASSERT_EQ(checks.rows(), 2u * (3 + 4));  // per type: 3 arrays, 4 rate ceilings
    for (std::size_t r = 0; r < checks.rows(); ++r) {
      EXPECT_EQ(checks.get_int(r, "passed"), 1) << checks.get_string(r, "subject");
      EXPECT_EQ(checks.get_string(r, "kind"), "validation");
    }
    EXPECT_EQ(checks.get_string(0, "check"), "stream.validation");
    EXPECT_EQ(checks.get_string(0, "subject"), "rank 3 (thishost) double array a");
    EXPECT_EQ(checks.get_double(0, "upper"), 1e-13);
    EXPECT_EQ(checks.get_string(3, "check"), "stream.rate_ceiling");

    // One rank's tables summarise to the node with the same figures.
    const std::vector<Table> node = benchmark->summarize_node(tables);
    ASSERT_EQ(node.size(), 1u);
    ASSERT_EQ(node[0].rows(), 8u);
    EXPECT_DOUBLE_EQ(node[0].get_double(3, "bandwidth"), results.get_double(3, "bandwidth"));
  }
}

// ---- node summary ----

void add_rank_row(Table& t, int rank, const char* kernel, std::int64_t bytes, std::vector<double> samples,
                  bool valid = true) {
  const double t_min = *std::min_element(samples.begin() + 1, samples.end());
  t.add_row({{"rank", rank},
             {"host", "n01"},
             {"backend", "cpu"},
             {"kernel", kernel},
             {"threads", 2},
             {"device", "cpu"},
             {"type", "double"},
             {"stores", "nontemporal"},
             {"variant", ""},
             {"elements", 1000},
             {"ntimes", static_cast<int>(samples.size())},
             {"avg_rel_error", 0.0},
             {"error_limit", 1e-13},
             {"ceiling", 2e12},
             {"bytes", bytes},
             {"t_min", t_min},
             {"t_avg", 0.0},
             {"t_max", 0.0},
             {"bandwidth", bytes / t_min},
             {"valid", valid}},
            std::move(samples));
}

TEST(StreamNodeSummary, NodeTimeIsTheSlowestRankPerRepetition) {
  Table rank0 = make_stream_results_table(), rank1 = make_stream_results_table();
  add_rank_row(rank0, 0, "Copy", 16000, {9.0, 1.0, 2.0, 3.0});
  add_rank_row(rank0, 0, "Triad", 24000, {9.0, 4.0, 4.0, 4.0});
  add_rank_row(rank1, 1, "Copy", 16000, {0.5, 2.0, 1.5, 2.5});
  add_rank_row(rank1, 1, "Triad", 24000, {9.0, 3.0, 5.0, 2.0}, false);
  Table unrelated = make_checks_table();
  add_check(unrelated, {"x", "y", "validation", 0, 0, 0, 0, "", false});

  const auto benchmark = make_stream_benchmark();
  const std::vector<Table> out = benchmark->summarize_node({rank0, unrelated, rank1});
  ASSERT_EQ(out.size(), 1u);
  const Table& n = out[0];
  EXPECT_EQ(n.path(), "stream/nodes");
  ASSERT_EQ(n.rows(), 2u);

  // Copy: node times max(1,2)=2, max(2,1.5)=2, max(3,2.5)=3 (the warm-up 9 is dropped).
  EXPECT_EQ(n.get_string(0, "kernel"), "Copy");
  EXPECT_EQ(n.get_string(0, "host"), "n01");
  EXPECT_EQ(n.get_int(0, "ranks"), 2);
  EXPECT_EQ(n.get_int(0, "threads"), 4);
  EXPECT_EQ(n.get_int(0, "elements"), 2000);
  EXPECT_EQ(n.get_int(0, "bytes"), 32000);
  EXPECT_DOUBLE_EQ(n.get_double(0, "t_min"), 2.0);
  EXPECT_DOUBLE_EQ(n.get_double(0, "t_avg"), 7.0 / 3.0);
  EXPECT_DOUBLE_EQ(n.get_double(0, "t_max"), 3.0);
  EXPECT_DOUBLE_EQ(n.get_double(0, "bandwidth"), 16000.0);
  EXPECT_EQ(n.get_int(0, "valid"), 1);
  EXPECT_EQ(n.get_string(0, "stores"), "nontemporal");

  // Triad: max(4,3)=4, max(4,5)=5, max(4,2)=4; rank 1 invalid makes the node invalid.
  EXPECT_EQ(n.get_string(1, "kernel"), "Triad");
  EXPECT_DOUBLE_EQ(n.get_double(1, "t_min"), 4.0);
  EXPECT_DOUBLE_EQ(n.get_double(1, "t_avg"), 13.0 / 3.0);
  EXPECT_DOUBLE_EQ(n.get_double(1, "t_max"), 5.0);
  EXPECT_DOUBLE_EQ(n.get_double(1, "bandwidth"), 48000.0 / 4.0);
  EXPECT_EQ(n.get_int(1, "valid"), 0);

  EXPECT_TRUE(benchmark->summarize_node({unrelated}).empty());
}

// ---- report ----

void add_node_row(Table& t, const std::string& host, const char* kernel, double bandwidth, double t_min,
                  bool valid = true) {
  t.add_row({{"host", host},
             {"backend", "cpu"},
             {"ranks", 1},
             {"threads", 2},
             {"devices", 1},
             {"device", "cpu"},
             {"kernel", kernel},
             {"type", "double"},
             {"stores", "nontemporal"},
             {"elements", 100000000},
             {"bytes", static_cast<std::int64_t>(bandwidth * t_min)},
             {"t_min", t_min},
             {"t_avg", t_min * 1.1},
             {"t_max", t_min * 1.2},
             {"bandwidth", bandwidth},
             {"valid", valid}});
}

TEST(StreamReport, NodeTableStreamTableAndInvalidRows) {
  Table node10 = make_stream_nodes_table(), node2 = make_stream_nodes_table();
  for (const StreamKernelSpec& k : kStreamKernels) {
    add_node_row(node10, "node10", std::string(k.label).c_str(), 30e9, 0.1, k.kernel != StreamKernel::Add);
    add_node_row(node2, "node2", std::string(k.label).c_str(), 28.123e9, 0.05);
  }
  const std::vector<std::string> lines = make_stream_report()->summary_lines({node10, node2});
  auto index_of = [&](const std::string& text) {
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (lines[i].find(text) != std::string::npos) return static_cast<long>(i);
    return -1L;
  };
  std::string all;
  for (const std::string& l : lines) all += l + "\n";

  const long header = index_of("host");
  ASSERT_GE(header, 0) << all;
  EXPECT_NE(lines[header].find("Copy"), std::string::npos);
  EXPECT_NE(lines[header].find("Triad"), std::string::npos);
  // Sorted by host, node2 before node10; rates in GB/s with 2 decimals.
  EXPECT_EQ(lines[header + 1].rfind("node2", 0), 0u) << all;
  EXPECT_NE(lines[header + 1].find("28.12"), std::string::npos) << all;
  EXPECT_EQ(lines[header + 2].rfind("node10", 0), 0u) << all;
  EXPECT_NE(lines[header + 2].find("30.00"), std::string::npos) << all;

  // STREAM's own table for each node (2 nodes <= 4).
  const long title = index_of("STREAM double on node2 (1 rank, 2 threads, 100000000 elements per array)");
  ASSERT_GE(title, 0) << all;
  EXPECT_EQ(lines[title + 1], "Function    Best Rate MB/s  Avg time     Min time     Max time");
  EXPECT_EQ(lines[title + 2], "Copy:           28123.0     0.055000     0.050000     0.060000");
  EXPECT_EQ(lines[title + 5].rfind("Triad:", 0), 0u);
  EXPECT_GE(index_of("STREAM double on node10"), 0) << all;

  // The invalid row is named.
  const long invalid = index_of("INVALID");
  ASSERT_GE(invalid, 0) << all;
  EXPECT_NE(lines[invalid].find("node10"), std::string::npos);
  EXPECT_NE(lines[invalid].find("Add"), std::string::npos);
  EXPECT_NE(lines[invalid].find("double"), std::string::npos);
  EXPECT_EQ(index_of("INVALID: node2"), -1) << all;
}

TEST(StreamReport, NoStreamTablesWithManyNodesSkipsStreamTables) {
  EXPECT_TRUE(make_stream_report()->summary_lines({}).empty());
  Table nodes = make_stream_nodes_table();
  for (const std::string host : {"n0", "n1", "n2", "n3", "n4"})
    for (const StreamKernelSpec& k : kStreamKernels) add_node_row(nodes, host, std::string(k.label).c_str(), 20e9, 0.1);
  const std::vector<std::string> lines = make_stream_report()->summary_lines({nodes});
  EXPECT_EQ(lines.size(), 1u + 1u + 5u);  // title, header, 5 nodes
  for (const std::string& l : lines) EXPECT_EQ(l.find("Function"), std::string::npos);
}

// ---- one validation rule for both backends (--stream.validate-epsilon) ----

// After 1 repetition (double): a = 30, b = 6, c = 8. One element of b off by
// d in n = 1000 gives an average relative error of d / 1000 / 6; STREAM
// 5.10's limit 1e-13 is d = 6e-10. Just under: d = 5.4e-10 (0.9e-13); just
// over: d = 6.6e-10 (1.1e-13).
StreamValidation judged_with_b_off_by(double d, const StreamValidationRule& rule) {
  constexpr std::size_t n = 1000;
  std::vector<double> a(n, 30.0), b(n, 6.0), c(n, 8.0);
  b[123] += d;
  const StreamExpected expected = stream_expected_values<double>(1);
  // The sums, then judge_stream_run: what the CPU team job and the OpenCL runner both call.
  return judge_stream_run<double>(sum_stream_errors(a.data(), b.data(), c.data(), 0, n, expected), n, 1, rule);
}

TEST(StreamValidationRule, JustUnderPassesJustOverFailsAndTheOptionMovesTheLimit) {
  const StreamValidationRule stream510 = parse_validation_rule(Config());  // default: auto
  EXPECT_EQ(stream510.limit<double>(), 1e-13);
  EXPECT_EQ(stream510.limit<float>(), 1e-6);
  EXPECT_TRUE(judged_with_b_off_by(5.4e-10, stream510).passed());
  EXPECT_FALSE(judged_with_b_off_by(6.6e-10, stream510).passed());
  EXPECT_NEAR(judged_with_b_off_by(6.6e-10, stream510).of(StreamArray::B).avg_rel_error, 1.1e-13, 1e-16);

  // --stream.validate-epsilon 1e-12: the "over" case now passes; 1e-14: the "under" case fails.
  const StreamValidationRule looser = parse_validation_rule(config_with({{kValidateEpsilonOption, "1e-12"}}));
  EXPECT_EQ(looser.limit<double>(), 1e-12);
  EXPECT_EQ(looser.limit<float>(), 1e-12);  // one value for both types
  EXPECT_TRUE(judged_with_b_off_by(6.6e-10, looser).passed());
  const StreamValidationRule stricter = parse_validation_rule(config_with({{kValidateEpsilonOption, "1e-14"}}));
  EXPECT_FALSE(judged_with_b_off_by(5.4e-10, stricter).passed());
  EXPECT_EQ(judged_with_b_off_by(5.4e-10, stricter).of(StreamArray::B).limit, 1e-14);

  // The CPU plan carries it.
  const topo::Topology topology = topo::Topology::synthetic(kSmallNode);
  EXPECT_EQ(plan_stream(config_with({{kValidateEpsilonOption, "1e-12"}}), node_of(topology)).validation.limit<double>(),
            1e-12);
  EXPECT_EQ(plan_stream(Config(), node_of(topology)).validation.limit<double>(), 1e-13);
}

TEST(StreamValidationRule, BadValuesAreOneLineNamingTheOption) {
  for (const char* bad : {"0", "-1e-13", "1", "2", "tiny", "1e400", "nan"}) {
    const std::string message =
        bws::test::usage_error_of([&] { parse_validation_rule(config_with({{kValidateEpsilonOption, bad}})); });
    EXPECT_NE(message.find("--stream.validate-epsilon"), std::string::npos) << bad << ": " << message;
    EXPECT_NE(message.find("> 0 and < 1"), std::string::npos) << bad << ": " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << bad;
  }
}

}  // namespace
}  // namespace bws::stream
