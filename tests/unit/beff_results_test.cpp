// b_eff (lib/beff): payload stamps and checks, results from hand-made
// samples (b(L), the b_eff mean, per rank, latency, best of methods,
// Hockney, scaling), the calibration step, the tables and HPCC_FPGA b_eff's
// printed table.
#include <gtest/gtest.h>

#include "BeffTestSupport.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "beff/BeffBenchmark.hpp"
#include "beff/BeffEstimate.hpp"
#include "beff/BeffNeighbourRings.hpp"
#include "beff/BeffPayload.hpp"
#include "beff/BeffPlan.hpp"
#include "beff/BeffResults.hpp"
#include "beff/BeffRingRun.hpp"
#include "beff/BeffTables.hpp"
#include "core/ResultColumns.hpp"

namespace bws::beff {
namespace {

// ---- payload ----

class BeffPayloadTest : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(BeffPayloadTest, ACorrectMessagePassesAndEveryWrongOneIsCaught) {
  const std::uint64_t L = GetParam();
  std::vector<std::byte> message(L);
  const PayloadStamp good{3, 1000, L, Direction::Rightward};
  stamp_message(message.data(), L, good);
  EXPECT_EQ(check_message(message.data(), L, good), PayloadProblem::None);

  PayloadStamp stale = good;
  stale.iteration = 999;
  EXPECT_EQ(check_message(message.data(), L, stale), PayloadProblem::Stale) << "the receiver expected 999";
  stamp_message(message.data(), L, stale);
  EXPECT_EQ(check_message(message.data(), L, good), PayloadProblem::Stale);

  PayloadStamp other_direction = good;
  other_direction.direction = Direction::Leftward;
  stamp_message(message.data(), L, other_direction);
  EXPECT_EQ(check_message(message.data(), L, good), PayloadProblem::WrongDirection);

  PayloadStamp misrouted = good;
  misrouted.sender = 4;
  stamp_message(message.data(), L, misrouted);
  // A short message carries no readable fields: wrong, but not nameable.
  EXPECT_EQ(check_message(message.data(), L, good),
            L >= kShortMessageBytes ? PayloadProblem::Misrouted : PayloadProblem::Corrupted);

  // One flipped bit in the first, the last and (when there is one) a middle stamp.
  for (std::uint64_t at : {std::uint64_t{0}, L - 1, std::uint64_t{4096 + 5}}) {
    if (at >= L) continue;
    stamp_message(message.data(), L, good);
    message[at] ^= std::byte{0x10};
    EXPECT_NE(check_message(message.data(), L, good), PayloadProblem::None) << "byte " << at;
  }
}

INSTANTIATE_TEST_SUITE_P(BeffMessageSizes, BeffPayloadTest,
                         ::testing::Values(2, 3, 8, 15, 16, 31, 32, 33, 100, 4095, 4096, 4097, 4128, 8192 + 17,
                                           1048576));

TEST(BeffPayload, StampsSitAtFirstLastAndEvery4096thByte) {
  const std::uint64_t L = 3 * 4096 + 100;
  std::vector<std::byte> message(L, std::byte{0});
  stamp_message(message.data(), L, {1, 2, L, Direction::Leftward});
  auto stamped = [&](std::uint64_t at) {
    return std::any_of(message.begin() + static_cast<std::ptrdiff_t>(at),
                       message.begin() + static_cast<std::ptrdiff_t>(at + kStampBytes),
                       [](std::byte b) { return b != std::byte{0}; });
  };
  for (std::uint64_t at : {std::uint64_t{0}, std::uint64_t{4096}, std::uint64_t{8192}, std::uint64_t{12288},
                           L - kStampBytes})
    EXPECT_TRUE(stamped(at)) << at;
  // Bytes between stamps are not written: the stamp costs a few stores per page.
  const std::vector<std::uint64_t> starts = {0, 4096, 8192, 12288, L - kStampBytes};
  for (std::uint64_t i = 0; i < L; ++i) {
    const bool in_stamp = std::any_of(starts.begin(), starts.end(),
                                      [&](std::uint64_t s) { return i >= s && i < s + kStampBytes; });
    if (!in_stamp) {
      ASSERT_EQ(message[i], std::byte{0}) << "byte " << i;
    }
  }
  // A stamp copied to another offset fails its hash.
  std::memcpy(message.data() + 4096, message.data(), kStampBytes);
  EXPECT_EQ(check_message(message.data(), L, {1, 2, L, Direction::Leftward}), PayloadProblem::Corrupted);
}

TEST(BeffPayload, WrongSizeIsNamed) {
  // A 2048-byte message in a buffer that last held a 4096-byte one: the
  // first stamp, where both sizes put one, names the size.
  std::vector<std::byte> message(4096);
  stamp_message(message.data(), 4096, {0, 7, 4096, Direction::Rightward});
  stamp_message(message.data(), 2048, {0, 7, 2048, Direction::Rightward});
  EXPECT_EQ(check_message(message.data(), 4096, {0, 7, 4096, Direction::Rightward}), PayloadProblem::WrongSize);
}

TEST(BeffPayload, TallyCountsByProblem) {
  PayloadTally tally;
  tally.add(PayloadProblem::None);
  EXPECT_EQ(tally.total(), 0u);
  EXPECT_EQ(tally.describe(), "");
  tally.add(PayloadProblem::Stale);
  tally.add(PayloadProblem::Stale);
  tally.add(PayloadProblem::Misrouted);
  EXPECT_EQ(tally.total(), 3u);
  EXPECT_EQ(tally.of(PayloadProblem::Stale), 2u);
  EXPECT_EQ(tally.describe(), "1 misrouted (wrong sender), 2 stale (wrong iteration)");
}

// ---- results ----

// Two sizes on 4 ranks, by hand:
//   L = 8, looplength 100: best t_max 0.0075 (nonblocking, repetition 1):
//     b = 4 * 2*8 * 100 / 0.0075 = 853333.33 B/s; t per exchange 75 us.
//   L = 1024, looplength 10: best 0.004 (sendrecv): b = 4 * 2048 * 10 / 0.004 = 20480000 B/s.
//   b_eff = (853333.33 + 20480000) / 2 = 10666666.67 B/s; per rank 2666666.67 B/s.
RingMeasurement hand_made_ring() {
  RingMeasurement m;
  m.ring = natural_ring(4);
  m.sizes.push_back(size_of(8, 100,
                            {samples(ExchangeMethod::Sendrecv, {0.010, 0.008, 0.009}),
                             samples(ExchangeMethod::Nonblocking, {0.0085, 0.0075})}));
  m.sizes.push_back(size_of(1024, 10,
                            {samples(ExchangeMethod::Sendrecv, {0.004}), samples(ExchangeMethod::Nonblocking, {0.005})}));
  return m;
}

TEST(BeffResults, AggregateBandwidthIsRanksTimes2LTimesLooplengthOverTheSlowestTime) {
  EXPECT_EQ(sample_bytes(4, 8, 100), 6400u);
  EXPECT_DOUBLE_EQ(sample_bandwidth_Bps(4, 8, 100, 0.0075), 6400 / 0.0075);
  EXPECT_DOUBLE_EQ(sample_bandwidth_Bps(1, 1, 16384, 2.02084e-02), 2.0 * 16384 / 2.02084e-02);
}

TEST(BeffResults, BestOfRepetitionsAndMethods) {
  const RingMeasurement m = hand_made_ring();
  const SizeResult small = best_of_size(m.sizes[0], 4);
  EXPECT_EQ(small.best_method, ExchangeMethod::Nonblocking);
  EXPECT_EQ(small.best_repetition, 1);
  EXPECT_DOUBLE_EQ(small.t_best_seconds, 0.0075);
  EXPECT_DOUBLE_EQ(small.t_exchange_seconds, 75e-6);
  EXPECT_NEAR(small.b_Bps, 853333.3333, 1e-3);
  EXPECT_NEAR(small.b_per_rank_Bps, 213333.3333, 1e-3);
  EXPECT_TRUE(small.valid);
  const SizeResult large = best_of_size(m.sizes[1], 4);
  EXPECT_EQ(large.best_method, ExchangeMethod::Sendrecv);
  EXPECT_DOUBLE_EQ(large.b_Bps, 20480000.0);
}

TEST(BeffResults, BeffIsThePlainMeanPerRankIsOverNAndLatencyIsThe8ByteExchange) {
  const RingResult r = ring_result(hand_made_ring());
  EXPECT_EQ(r.ranks, 4);
  ASSERT_EQ(r.sizes.size(), 2u);
  EXPECT_NEAR(r.b_eff_Bps, (853333.3333333 + 20480000.0) / 2, 1e-3);
  EXPECT_NEAR(r.b_eff_Bps, 10666666.6667, 1e-3);
  EXPECT_NEAR(r.b_eff_per_rank_Bps, 2666666.6667, 1e-3);
  EXPECT_DOUBLE_EQ(r.latency_8B_seconds, 75e-6 / 2);  // per message: two per exchange
  EXPECT_TRUE(r.valid);
  // Without an 8-byte size there is no latency figure.
  RingMeasurement no8 = hand_made_ring();
  no8.sizes.erase(no8.sizes.begin());
  EXPECT_TRUE(std::isnan(ring_result(no8).latency_8B_seconds));
}

TEST(BeffResults, AMethodWithBadPayloadDoesNotCountAndMakesTheSizeInvalid) {
  // The faster nonblocking samples carried a stale message: sendrecv's best counts.
  SizeMeasurement s = size_of(8, 100,
                              {samples(ExchangeMethod::Sendrecv, {0.010, 0.008}),
                               samples(ExchangeMethod::Nonblocking, {0.001}, false)});
  SizeResult r = best_of_size(s, 4);
  EXPECT_EQ(r.best_method, ExchangeMethod::Sendrecv);
  EXPECT_DOUBLE_EQ(r.t_best_seconds, 0.008);
  EXPECT_FALSE(r.valid);
  // No valid method at all: the best of everything, still invalid.
  s.methods[0] = samples(ExchangeMethod::Sendrecv, {0.010}, false);
  r = best_of_size(s, 4);
  EXPECT_DOUBLE_EQ(r.t_best_seconds, 0.001);
  EXPECT_FALSE(r.valid);
  EXPECT_THROW(best_of_size(size_of(8, 1, {}), 4), std::invalid_argument);
}

TEST(BeffResults, SeedsMeasuredTableAveragesTo3_95057e9) {
  // HPCC_FPGA b_eff, one FPGA: the B/s column's plain mean is the printed b_eff.
  const std::vector<double> b = {1.62150e+06, 3.24313e+06, 6.48621e+06, 1.29722e+07, 2.59453e+07, 5.18907e+07,
                                 1.03781e+08, 2.05794e+08, 4.02737e+08, 7.72389e+08, 1.43097e+09, 2.50444e+09,
                                 3.99620e+09, 7.24052e+09, 8.37438e+09, 9.08229e+09, 9.48329e+09, 9.69693e+09,
                                 9.80814e+09, 9.86474e+09, 9.89317e+09};
  std::vector<SizeResult> sizes;
  for (double x : b) {
    SizeResult s;
    s.b_Bps = x;
    sizes.push_back(s);
  }
  EXPECT_NEAR(beff_mean_Bps(sizes) / 3.95057e9, 1.0, 5e-6);
  EXPECT_TRUE(std::isnan(beff_mean_Bps({})));
}

TEST(BeffResults, HockneyFitRecoversAlphaAndBetaFromExactTimes) {
  // t(L) = 2 us + L / 1 GB/s per exchange; looplength 1000 per sample.
  RingMeasurement m;
  m.ring = natural_ring(2);
  for (std::uint64_t L : {1ull, 8ull, 64ull, 1024ull, 65536ull, 1048576ull}) {
    const double t = 2e-6 + static_cast<double>(L) / 1e9;
    m.sizes.push_back(size_of(L, 1000, {samples(ExchangeMethod::Sendrecv, {1000 * t})}));
  }
  const RingResult r = ring_result(m);
  ASSERT_TRUE(r.hockney.valid) << r.hockney.invalid_reason;
  EXPECT_NEAR(r.hockney.alpha_seconds, 2e-6, 1e-12);
  EXPECT_NEAR(r.hockney.beta_Bps / 1e9, 1.0, 1e-9);
  EXPECT_NEAR(r.hockney.r_squared, 1.0, 1e-9);
  for (const SizeResult& s : r.sizes) {
    // Aggregate model b(L) = n * 2L / t(L); it equals the measured one.
    EXPECT_NEAR(s.model_b_Bps / s.b_Bps, 1.0, 1e-9) << s.message_bytes;
    EXPECT_NEAR(s.residual, 0.0, 1e-9);
  }
  EXPECT_NEAR(r.hockney_b_eff_Bps / r.b_eff_Bps, 1.0, 1e-9);
}

TEST(BeffResults, ScalingEfficiencyOfTheSeedsEightDevices) {
  // HPCC_FPGA b_eff: 8 FPGAs 3.13237e10 B/s against 8 x 4.07e9 per device: E = 0.962.
  RingResult natural, reference;
  natural.ranks = 8;
  natural.b_eff_Bps = 3.13237e10;
  natural.b_eff_per_rank_Bps = natural.b_eff_Bps / 8;
  reference.ranks = 2;
  reference.kind = RingKind::Reference;
  reference.b_eff_Bps = 2 * 4.07e9;
  reference.b_eff_per_rank_Bps = 4.07e9;
  ScalingResult s = scaling_result(natural, &reference, 0.8, "ranks 0 and 1 (one node)");
  EXPECT_NEAR(s.efficiency, 0.962, 5e-4);
  EXPECT_DOUBLE_EQ(s.reference_per_rank_Bps, 4.07e9);
  EXPECT_TRUE(s.check.passed);
  EXPECT_EQ(s.check.kind, "model");
  EXPECT_EQ(s.check.check, "beff.linear_scaling");
  EXPECT_NE(s.check.subject.find("8 ranks"), std::string::npos) << s.check.subject;
  EXPECT_FALSE(scaling_result(natural, &reference, 0.97, "r").check.passed);
  // Oversubscribed: recorded as a warning, never a failed model check.
  s = scaling_result(natural, &reference, 0.97, "r", "4 ranks on 2 processors of a node");
  EXPECT_FALSE(s.check.passed);
  EXPECT_EQ(s.check.kind, "warning");
  EXPECT_FALSE(s.enforced);
  EXPECT_NE(s.check.subject.find("oversubscribed"), std::string::npos);
}

TEST(BeffResults, WithTwoRanksOrOneTheNaturalRingIsItsOwnReference) {
  RingResult natural;
  natural.ranks = 2;
  natural.b_eff_Bps = 3e9;
  natural.b_eff_per_rank_Bps = 1e9;  // deliberately not b_eff / 2: E must still be exactly 1
  const ScalingResult s = scaling_result(natural, nullptr, 1.0, "the natural ring itself (2 ranks)");
  EXPECT_TRUE(s.reference_is_natural_ring);
  EXPECT_EQ(s.efficiency, 1.0);
  EXPECT_TRUE(s.check.passed);
}

TEST(BeffCalibration, NextLooplengthExtrapolatesWithMarginWithinLimits) {
  EXPECT_EQ(next_looplength(1, 1e-6, 1e-3), 100u);          // x1200 wanted, x100 at most
  EXPECT_EQ(next_looplength(100, 0.5e-3, 1e-3), 240u);      // 1.2 x 2
  EXPECT_EQ(next_looplength(100, 0.0, 1e-3), 10000u);       // timer read 0
  EXPECT_EQ(next_looplength(100, 0.99e-3, 1e-3), 122u);
  EXPECT_EQ(next_looplength(100, 5e-3, 1e-3), 101u);        // at least one more
  EXPECT_EQ(next_looplength(kMaxLooplength - 1, 0.0, 1.0), kMaxLooplength);
}

// ---- tables and report ----

TEST(BeffTables, EverySampleIsARowWithItsBytesAndBandwidth) {
  const RingMeasurement m = hand_made_ring();
  Table results = make_beff_results_table();
  add_result_rows(results, m, "node1");
  ASSERT_EQ(results.rows(), 3u + 2u + 1u + 1u);
  EXPECT_EQ(results.get_int(0, "rank"), -1);
  EXPECT_EQ(results.get_string(0, "host"), "node1");
  EXPECT_EQ(results.get_string(0, "method"), "sendrecv");
  EXPECT_EQ(results.get_int(0, "bytes"), 6400);
  EXPECT_DOUBLE_EQ(results.get_double(0, "t_max"), 0.010);
  EXPECT_DOUBLE_EQ(results.get_double(0, "bandwidth"), 6400 / 0.010);
  EXPECT_LE(results.get_double(0, "t_min"), results.get_double(0, "t_avg"));
  EXPECT_EQ(results.get_int(4, "repetition"), 1);
  EXPECT_EQ(results.get_string(4, "method"), "nonblocking");
  EXPECT_EQ(results.get_int(0, "valid"), 1);

  Table rings = make_beff_rings_table();
  add_ring_rows(rings, m.ring, 12345);
  ASSERT_EQ(rings.rows(), 4u);
  EXPECT_EQ(rings.get_int(3, "rank"), 3);
  EXPECT_EQ(rings.get_int(3, "seed"), 12345);
}

TEST(BeffTables, PayloadFailuresNameRingSizeMethodRankAndProblem) {
  RingMeasurement m = hand_made_ring();
  Table checks = make_checks_table();
  add_payload_checks(checks, m);
  ASSERT_EQ(checks.rows(), 1u);
  EXPECT_EQ(checks.get_int(0, "passed"), 1);
  EXPECT_EQ(checks.get_string(0, "kind"), "validation");

  m.sizes[1].methods[1] = samples(ExchangeMethod::Nonblocking, {0.005}, false);
  m.sizes[1].methods[1].payload.failing_ranks = 2;
  checks = make_checks_table();
  add_payload_checks(checks, m);
  ASSERT_EQ(checks.rows(), 1u);
  EXPECT_EQ(checks.get_int(0, "passed"), 0);
  EXPECT_EQ(checks.get_string(0, "check"), "beff.payload");
  EXPECT_EQ(checks.get_string(0, "subject"),
            "natural ring, 1024 B, nonblocking: rank 2 and 1 more: 1 stale (wrong iteration)");
  Table results = make_beff_results_table();
  add_result_rows(results, m, "h");
  EXPECT_EQ(results.get_int(results.rows() - 1, "valid"), 0);
}

// HPCC_FPGA b_eff's single-FPGA rows, put into the tables, print as its model printed them.
TEST(BeffReport, PrintsTheSeedsTableAndBeffLine) {
  const std::vector<std::pair<std::uint64_t, std::pair<double, double>>> seed = {
      {1, {2.02084e-02, 1.62150e+06}}, {2, {2.02076e-02, 3.24313e+06}}, {4096, {3.35864e-02, 3.99620e+09}},
      {2097152, {6.94615e+00, 9.89317e+09}}};
  RingResult natural;
  natural.ranks = 1;
  for (const auto& [L, tb] : seed) {
    SizeResult s;
    s.message_bytes = L;
    s.looplength = 16384;
    s.t_best_seconds = tb.first;
    s.b_Bps = tb.second;
    s.valid = true;
    natural.sizes.push_back(s);
  }
  natural.b_eff_Bps = 3.95057e9;
  natural.b_eff_per_rank_Bps = 3.95057e9;
  natural.latency_8B_seconds = 2.5e-6;
  natural.valid = true;
  Table sizes = make_beff_sizes_table(), summary = make_beff_summary_table();
  add_size_rows(sizes, natural);
  SummaryExtras extras;
  extras.seed = 12345;
  extras.reference = "the natural ring itself (1 rank)";
  extras.reference_per_rank_Bps = 3.95057e9;
  extras.efficiency = 1;
  extras.min_efficiency = 0.8;
  extras.scaling_passed = 1;
  extras.scaling_enforced = true;
  add_summary_row(summary, natural, extras);

  const auto lines = make_beff_report()->summary_lines({sizes, summary});
  auto has = [&](const std::string& text) { return std::find(lines.begin(), lines.end(), text) != lines.end(); };
  auto has_part = [&](const std::string& text) {
    return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(text) != std::string::npos; });
  };
  std::string all;
  for (const auto& l : lines) all += l + "\n";
  EXPECT_TRUE(has("    MSize      looplength        transfer             B/s")) << all;
  EXPECT_TRUE(has("        1           16384     2.02084e-02     1.62150e+06")) << all;
  EXPECT_TRUE(has("     4096           16384     3.35864e-02     3.99620e+09")) << all;
  EXPECT_TRUE(has("  2097152           16384     6.94615e+00     9.89317e+09")) << all;
  // HPCC_FPGA prints "b_eff = 3.95057e+09 B/s"; the summary says GB/s (issue 17).
  EXPECT_TRUE(has("b_eff = 3.951 GB/s")) << all;
  EXPECT_TRUE(has_part("b_eff per rank = 3.951 GB/s; latency (8 B, per message) = 2.50 us")) << all;
  EXPECT_TRUE(has_part("E(1) = 1.000 (min 0.80): passed")) << all;
  EXPECT_FALSE(has_part("INVALID")) << all;
  EXPECT_TRUE(make_beff_report()->summary_lines({}).empty());
}

}  // namespace
}  // namespace bws::beff

// The retest's rings of b_eff per rank: every natural pair of neighbouring
// nodes is apart on at least one of them, a node's ranks stay together, and
// every rank is in every ring. Checked by counting node pairs from the ring
// orders, for block and cyclic placements of 1-3 ranks per node.
namespace {
using bws::beff::neighbour_changing_rings;
using NodePair = std::pair<int, int>;

std::vector<int> placement(int nodes, int per_node, bool cyclic) {
  std::vector<int> node_of_rank;
  for (int r = 0; r < nodes * per_node; ++r) node_of_rank.push_back(cyclic ? r % nodes : r / per_node);
  return node_of_rank;
}

// The pairs of different nodes that a ring order (of ranks) makes neighbours.
std::set<NodePair> node_pairs(const std::vector<int>& order, const std::vector<int>& node_of_rank) {
  std::set<NodePair> pairs;
  for (std::size_t p = 0; p < order.size(); ++p) {
    const int a = node_of_rank[static_cast<std::size_t>(order[p])];
    const int b = node_of_rank[static_cast<std::size_t>(order[(p + 1) % order.size()])];
    if (a != b) pairs.insert({std::min(a, b), std::max(a, b)});
  }
  return pairs;
}

std::vector<int> natural_order(std::size_t ranks) {
  std::vector<int> order;
  for (std::size_t r = 0; r < ranks; ++r) order.push_back(static_cast<int>(r));
  return order;
}

TEST(BeffNeighbourRings, EveryNaturalNeighbourIsApartOnSomeRing) {
  for (int nodes = 4; nodes <= 41; ++nodes)
    for (int per_node = 1; per_node <= 3; ++per_node)
      for (bool cyclic : {false, true}) {
        SCOPED_TRACE(std::to_string(nodes) + " nodes x " + std::to_string(per_node) + (cyclic ? " cyclic" : " block"));
        const std::vector<int> node_of_rank = placement(nodes, per_node, cyclic);
        const auto rings = neighbour_changing_rings(node_of_rank);
        ASSERT_EQ(rings.size(), nodes == 4 ? 2u : 1u);
        const std::set<NodePair> natural = node_pairs(natural_order(node_of_rank.size()), node_of_rank);
        std::vector<std::set<NodePair>> per_ring;
        for (const auto& ring : rings) {
          std::vector<int> sorted = ring.order;
          std::sort(sorted.begin(), sorted.end());
          ASSERT_EQ(sorted, natural_order(node_of_rank.size())) << "every rank once";
          per_ring.push_back(node_pairs(ring.order, node_of_rank));
          // A node's ranks together: a ring of n nodes has n node pairs.
          EXPECT_EQ(per_ring.back().size(), static_cast<std::size_t>(nodes));
        }
        for (const NodePair& pair : natural) {
          bool apart_somewhere = false;
          for (const auto& pairs : per_ring) apart_somewhere = apart_somewhere || !pairs.count(pair);
          EXPECT_TRUE(apart_somewhere) << pair.first << "-" << pair.second;
          if (nodes >= 5) {
            EXPECT_FALSE(per_ring[0].count(pair)) << "one ring with no natural pair at all";
          }
        }
      }
}

TEST(BeffNeighbourRings, NoneForThreeNodesOrFewer) {
  for (int nodes = 1; nodes <= 3; ++nodes) EXPECT_TRUE(neighbour_changing_rings(placement(nodes, 2, false)).empty());
  EXPECT_TRUE(neighbour_changing_rings({}).empty());
}

TEST(BeffNeighbourRings, NodesAreNumberedByTheirFirstRank) {
  // Node ids 7, 3, 9, 5, 1 (any integers): the ring of 5 nodes in steps of
  // 2 by first rank is 7 9 1 3 5, i.e. ranks 0 2 4 1 3.
  const auto rings = neighbour_changing_rings({7, 3, 9, 5, 1});
  ASSERT_EQ(rings.size(), 1u);
  EXPECT_EQ(rings[0].order, (std::vector<int>{0, 2, 4, 1, 3}));
}
}  // namespace

// b_eff's estimate counts the network once the probe has timed it: on a
// 400 Mbit/s link (50 MB/s), an exchange of 1 MiB to each neighbour sends
// 2 MiB, 41.9 ms, which outlasts min-time; memory speed alone said 0.2 ms.
namespace bws::beff {
namespace {

BeffParams one_mebibyte_ring(int ranks) {
  BeffParams p;
  p.sizes_bytes = {1 << 20};
  p.min_time_seconds = 0.001;
  p.reps = 10;
  p.random_rings = 0;
  p.methods = {ExchangeMethod::Sendrecv};
  p.layout.size = ranks;
  return p;
}

MachineSpeed quiet_node() {
  MachineSpeed s;
  s.thread_memory_Bps = 10e9;
  s.first_touch_Bps = 5e9;
  s.rank_exchange_seconds = 20e-6;
  s.rank_barrier_seconds = 10e-6;
  s.exchange_stretch = 1;
  return s;
}

TEST(BeffEstimate, ProbedLinkRateSetsTheLargeExchanges) {
  BeffParams p = one_mebibyte_ring(2);  // 2 ranks: the natural ring only
  const double unprobed = estimate_beff(p, quiet_node()).seconds;
  p.probed_send_Bps = 50e6;
  const TimeEstimate probed = estimate_beff(p, quiet_node());
  // 10 samples and 3 untimed exchanges at >= 2 MiB / 50 MB/s each, at least.
  const double exchange_seconds = 2.0 * (1 << 20) / 50e6;
  EXPECT_GE(probed.seconds, 13 * exchange_seconds);
  EXPECT_LE(probed.seconds, 2 * 15 * exchange_seconds) << "calibration adds about one sample, not more";
  EXPECT_LT(unprobed, probed.seconds / 20);
  EXPECT_NE(probed.terms.find("probed sends of 1.00 MiB x 2: 0.05 GB/s"), std::string::npos) << probed.terms;
}

TEST(BeffEstimate, ARateAboveMemorySpeedChangesNothing) {
  BeffParams p = one_mebibyte_ring(4);
  const double unprobed = estimate_beff(p, quiet_node()).seconds;
  p.probed_send_Bps = 40e9;  // shared memory measured faster than one thread's memcpy
  EXPECT_DOUBLE_EQ(estimate_beff(p, quiet_node()).seconds, unprobed);
}

}  // namespace
}  // namespace bws::beff
