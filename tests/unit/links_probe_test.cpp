// The link probe's rule and the estimate it gives, driven by simulated
// links: a link of rate R with a fixed cost L per window, and buffers of C
// bytes that a sender fills at memory speed before it waits for the link
// (TCP's socket buffers). Expected values come from that model, worked
// out here, never from the code under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "TestSupport.hpp"
#include "core/Errors.hpp"
#include "links/LinksPlan.hpp"
#include "links/LinksProbe.hpp"

namespace bws::links {
namespace {

struct SimulatedLink {
  double rate_Bps = 0;
  double latency_s = 0;     // per window
  double buffer_bytes = 0;  // what a sender hands off before the link carries it
  double memory_Bps = 5e9;  // the copy into the buffers
};

double window_time(const SimulatedLink& l, double window_bytes) { return l.latency_s + window_bytes / l.rate_Bps; }

ProbeSample sample_of(const SimulatedLink& l, std::uint64_t bytes, int window) {
  const double t = static_cast<double>(window) * static_cast<double>(bytes);
  const double receive = window_time(l, t);
  const double send = std::max(t / l.memory_Bps, (t - l.buffer_bytes) / l.rate_Bps);
  return {bytes, receive, std::max(0.0, 1 - send / receive)};
}

// The probe's loop as probe_links runs it: two windows per size.
LinkProbe simulate_probe(const SimulatedLink& l, int window, const ProbeBounds& bounds) {
  LinkProbe p;
  p.window = window;
  p.shift_seconds = 2 * l.latency_s;
  double elapsed = 0;
  for (std::uint64_t bytes = next_probe_bytes(p, bounds, 0, p.stop); bytes > 0;
       bytes = next_probe_bytes(p, bounds, elapsed, p.stop)) {
    p.samples.push_back(sample_of(l, bytes, window));
    elapsed += 2 * p.samples.back().receive_seconds;
  }
  p.seconds = elapsed;
  return p;
}

constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB;
// 400 Mbit/s Ethernet through TCP with 4 MiB of socket buffers per pair.
const SimulatedLink kTcp400{50e6, 100e-6, 4.0 * MiB};
// Shared memory between ranks of one host: nothing is buffered.
const SimulatedLink kSharedMemory{5e9, 2e-6, 0};

TEST(LinksProbe, BufferedLinkGetsASizeBeyondItsBuffers) {
  ProbeBounds bounds;
  bounds.max_seconds = 60;  // room to settle
  const LinkProbe p = simulate_probe(kTcp400, 8, bounds);
  EXPECT_EQ(p.stop, ProbeStop::Settled);
  const SizeChoice c = choose_message_bytes(p, bounds.max_message_bytes);
  // 4 MiB of buffers at most 10 % of a window of 8: messages of >= 5.12 MiB;
  // the doubling sizes give 8 MiB (4 MiB messages: 12.5 % buffered).
  EXPECT_EQ(c.message_bytes, 8 * MiB) << c.why;
  EXPECT_NE(c.why.find("buffered <= 10 %"), std::string::npos) << c.why;
  // Every smaller size was buffered more than 10 %: what 64 KiB x 4 timed.
  for (const ProbeSample& s : p.samples) {
    if (s.message_bytes < c.message_bytes) {
      EXPECT_GT(s.buffered_fraction, 0.1) << s.message_bytes;
    }
  }
}

TEST(LinksProbe, TimeBoundExtrapolatesFromTheBufferSeen) {
  ProbeBounds bounds;
  bounds.max_seconds = 2;
  const LinkProbe p = simulate_probe(kTcp400, 8, bounds);
  EXPECT_EQ(p.stop, ProbeStop::TimeBound);
  EXPECT_LE(p.seconds, 2.0);  // the bound holds, the next size's two windows predicted
  // Windows of 0.5 .. 16 MiB take 2 x (0.0106 + ... + 0.3356) s = 1.33 s; 32 MiB would add 1.34 s.
  EXPECT_EQ(p.samples.back().message_bytes, 2 * MiB);
  const SizeChoice c = choose_message_bytes(p, bounds.max_message_bytes);
  // Buffered 25 % of 16 MiB = 4 MiB (plus the latency's share): 40 MiB in
  // 8 messages of 5.25 MiB, rounded up to 64 KiB.
  EXPECT_GE(static_cast<double>(c.message_bytes), 4.0 * MiB / 0.1 / 8);
  EXPECT_LE(static_cast<double>(c.message_bytes), 1.05 * 4.0 * MiB / 0.1 / 8);
  EXPECT_EQ(c.message_bytes % (64 * KiB), 0u);
  EXPECT_NE(c.why.find("time bound"), std::string::npos) << c.why;
}

// TCP's autotuning grows the buffers with the transfer: a window buffered
// more than half has not shown how large they get, so it counts as buffer.
TEST(LinksProbe, AWindowBufferedMoreThanHalfCountsAsAllBuffer) {
  LinkProbe p;
  p.window = 8;
  p.stop = ProbeStop::TimeBound;
  p.samples = {{1 * MiB, 0.2, 0.4}};  // 3.2 MiB of 8 MiB buffered: 32 MiB of window, 4 MiB messages
  const std::uint64_t seen = choose_message_bytes(p, kLargestAutoBytes).message_bytes;
  EXPECT_GE(seen, 4 * MiB);  // rounded up to 64 KiB (0.1 is not exact in binary)
  EXPECT_LE(seen, 4 * MiB + 64 * KiB);
  p.samples = {{1 * MiB, 0.2, 0.6}};  // the whole 8 MiB: 80 MiB of window, 10 MiB messages
  const std::uint64_t whole = choose_message_bytes(p, kLargestAutoBytes).message_bytes;
  EXPECT_GE(whole, 10 * MiB);
  EXPECT_LE(whole, 10 * MiB + 64 * KiB);
}

// A last window that measured no buffering (a sender held back as long as
// its receives) after one that measured some, its rate still rising: the
// buffer seen before counts, and so does the fixed cost per window.
TEST(LinksProbe, NoisyLastSampleKeepsTheBufferSeenAndTheRisingRate) {
  LinkProbe p;
  p.window = 8;
  p.stop = ProbeStop::TimeBound;
  // A link of 50 MB/s with a fixed cost of 1 MiB / 50 MB/s per window:
  // windows of 2 and 4 MiB take 0.0629 s and 0.1049 s (a rate 20 % up).
  const double rate = 50e6, fixed = 1.0 * MiB / rate;
  p.samples = {{256 * KiB, fixed + 2.0 * MiB / rate, 0.25}, {512 * KiB, fixed + 4.0 * MiB / rate, 0.0}};
  // Buffer: 0.25 x 2 MiB, so 5 MiB of window; fixed cost: 1 MiB / 0.1 =
  // 10 MiB of window, the larger: 8 x 1.25 MiB.
  const SizeChoice c = choose_message_bytes(p, kLargestAutoBytes);
  EXPECT_GE(c.message_bytes, 5 * MiB / 4);
  EXPECT_LE(c.message_bytes, 5 * MiB / 4 + 64 * KiB);
  EXPECT_NE(c.why.find("rate still rising"), std::string::npos) << c.why;
  // The buffer alone: 0.75 x 2 MiB = 1.5 MiB, so 15 MiB of window.
  p.samples[0].buffered_fraction = 0.75;
  const SizeChoice b = choose_message_bytes(p, kLargestAutoBytes);
  EXPECT_GE(b.message_bytes, 15 * MiB / 8);
  EXPECT_LE(b.message_bytes, 15 * MiB / 8 + 64 * KiB);
  EXPECT_NE(b.why.find("1.50 MiB buffered at 8 x 512"), std::string::npos) << b.why;
  // A fixed cost of half the window: 20 MiB wanted, two doublings (16 MiB) at most.
  p.samples = {{256 * KiB, 0.06, 0.0}, {512 * KiB, 0.09, 0.0}};
  EXPECT_EQ(choose_message_bytes(p, kLargestAutoBytes).message_bytes, 2 * MiB);
  // Times that did not grow with size (noise): one doubling.
  p.samples = {{256 * KiB, 0.09, 0.0}, {512 * KiB, 0.05, 0.0}};
  EXPECT_EQ(choose_message_bytes(p, kLargestAutoBytes).message_bytes, 1 * MiB);
}

TEST(LinksProbe, MemoryBoundIsNeverPassed) {
  ProbeBounds bounds;
  bounds.max_message_bytes = 1 * MiB;
  bounds.max_seconds = 60;
  const LinkProbe p = simulate_probe(kTcp400, 8, bounds);
  EXPECT_EQ(p.stop, ProbeStop::MemoryBound);
  for (const ProbeSample& s : p.samples) EXPECT_LE(s.message_bytes, 1 * MiB);
  EXPECT_EQ(choose_message_bytes(p, bounds.max_message_bytes).message_bytes, 1 * MiB);
}

TEST(LinksProbe, FlatCurveGetsTheSmallestSize) {
  const LinkProbe p = simulate_probe(kSharedMemory, 4, ProbeBounds{});
  EXPECT_EQ(p.stop, ProbeStop::Settled);
  ASSERT_EQ(p.samples.size(), 2u);  // 64 KiB, then 128 KiB gained < 10 %
  EXPECT_EQ(choose_message_bytes(p, kLargestAutoBytes).message_bytes, 64 * KiB);
}

TEST(LinksProbe, GivenSizeIsProbedUpToAndNoFurther) {
  ProbeBounds bounds;
  bounds.given_bytes = 256 * KiB;
  bounds.max_message_bytes = 256 * KiB;
  const LinkProbe p = simulate_probe(kTcp400, 8, bounds);
  EXPECT_EQ(p.stop, ProbeStop::GivenSize);
  EXPECT_EQ(p.samples.back().message_bytes, 256 * KiB);
  // A given size below the first probe size is probed alone.
  bounds.given_bytes = bounds.max_message_bytes = 4 * KiB;
  const LinkProbe small = simulate_probe(kTcp400, 8, bounds);
  ASSERT_EQ(small.samples.size(), 1u);
  EXPECT_EQ(small.samples[0].message_bytes, 4 * KiB);
}

TEST(LinksProbe, WindowTimeFromTheCurve) {
  LinkProbe p;
  p.window = 2;
  p.samples = {{1000, 0.001, 0}, {2000, 0.003, 0}};  // windows of 2000 and 4000 bytes
  EXPECT_DOUBLE_EQ(probed_window_seconds(p, 1000), 0.001);  // below the smallest: its time
  EXPECT_DOUBLE_EQ(probed_window_seconds(p, 3000), 0.002);  // halfway
  EXPECT_DOUBLE_EQ(probed_window_seconds(p, 8000), 0.006);  // beyond: proportional
  EXPECT_LT(probed_window_seconds(LinkProbe{}, 1000), 0);  // no probe
}

RankLayout nodes(int n, double budget_seconds, bool quick = false) {
  RankLayout l;
  l.size = n;
  l.n_nodes = n;
  for (int i = 0; i < n; ++i) l.node_of_rank.push_back(i);
  l.node_memory_bytes = std::uint64_t{64} << 30;
  l.quick = quick;
  l.time_budget_seconds = budget_seconds;
  return l;
}

// Payload work and first touch out of the way: the link (with the default
// barrier and the fixed kStoreSeconds).
MachineSpeed fast_memory() {
  MachineSpeed s;
  s.thread_memory_Bps = s.first_touch_Bps = 1e18;
  return s;
}

struct Refitted {
  LinksPlan plan;
  LinkProbe probe;
};

Refitted refit_on(const SimulatedLink& link, const RankLayout& layout, const Config& config = {}) {
  const LinksOptions o = links_schema().read(config, layout.quick);
  Refitted r{plan_links(o, layout), {}};
  r.probe = simulate_probe(link, r.plan.window, probe_bounds(r.plan));
  refit_links_to_probe(r.plan, o, r.probe, fast_memory());
  return r;
}

// What the link map takes on the simulated link: rounds of disjoint pairs
// (N - 1 for even N, N for odd: the circle method), each measured one way
// and then the other, of (1 + reps) windows and 50 8-byte messages.
double modelled_seconds(const SimulatedLink& link, const LinksPlan& p, double shift_seconds) {
  const double window_bytes = static_cast<double>(p.window) * static_cast<double>(p.bytes);
  const int n = p.members(), rounds = n % 2 == 0 ? n - 1 : n;
  return rounds * 2 * ((1 + p.reps) * window_time(link, window_bytes) + 50 * shift_seconds);
}

TEST(LinksProbeEstimate, WithinTwiceTheModelledTimeAt400And100Mbits) {
  for (const double rate : {50e6, 12.5e6}) {
    const SimulatedLink link{rate, 100e-6, 4.0 * MiB};
    for (const bool quick : {false, true}) {
      const Refitted r = refit_on(link, nodes(4, 0, quick));
      const double modelled = modelled_seconds(link, r.plan, r.probe.shift_seconds);
      EXPECT_GT(r.plan.estimate_seconds, modelled / 2) << rate << " quick " << quick;
      EXPECT_LT(r.plan.estimate_seconds, modelled * 2) << rate << " quick " << quick;
      // The assumed 1 GB/s links said far less, and the plan line says both.
      EXPECT_LT(r.plan.assumed_estimate_seconds, modelled / 10);
      const std::string line = describe_links(r.plan);
      EXPECT_NE(line.find("; link probe: "), std::string::npos) << line;
      EXPECT_NE(line.find("; size auto: "), std::string::npos) << line;
      EXPECT_NE(line.find("; assumed links would say "), std::string::npos) << line;
      EXPECT_EQ(r.plan.chosen_options.at("links.bytes"), std::to_string(r.plan.bytes));
    }
  }
}

TEST(LinksProbeEstimate, BudgetBoundsTheProbedPlan) {
  const SimulatedLink link{12.5e6, 100e-6, 4.0 * MiB};  // 100 Mbit/s
  const Refitted r = refit_on(link, nodes(4, 60));
  // The probe had 2 s (10 % of 60 s is 6 s): it stopped at the time bound with
  // every window buffered, so 10x the 4 MiB seen: 8 messages of 5 MiB,
  // 3.36 s a window; 3 rounds x 2 ways x 6 windows is 121 s, 2 windows 40 s,
  // so reps are lowered to 1.
  EXPECT_EQ(r.probe.stop, ProbeStop::TimeBound);
  EXPECT_EQ(r.plan.bytes, 5 * MiB);
  EXPECT_EQ(r.plan.reps, 1);
  EXPECT_LE(r.plan.estimate_seconds, 60);
  EXPECT_LE(modelled_seconds(link, r.plan, r.probe.shift_seconds), 60);
  EXPECT_NE(describe_links(r.plan).find("to fit it: reps 5 -> 1"), std::string::npos) << describe_links(r.plan);
  EXPECT_EQ(r.plan.chosen_options.at("links.reps"), "1");
  EXPECT_EQ(describe_links(r.plan).find("below the probe's"), std::string::npos);  // the size is the probe's
  // 10 s: the probe has 1 s (10 %) and sees 2 MiB buffered at 8 x 256
  // KiB, so 8 x 2.5 MiB; 1 rep of that is 3 rounds x 2 ways x 2 windows x
  // 1.68 s = 20.2 s. Halving the size would time the buffers (a clean node
  // named at 71 % on real links), so the budget is refused instead, with
  // the smallest plan's estimate and why the size stays.
  const LinksOptions defaults = links_schema().read(Config{}, false);
  LinksPlan short_budget = plan_links(defaults, nodes(4, 10));
  const LinkProbe seen = simulate_probe(link, short_budget.window, probe_bounds(short_budget));
  const std::string refused =
      test::usage_error_of([&] { refit_links_to_probe(short_budget, defaults, seen, fast_memory()); });
  EXPECT_EQ(refused.find('\n'), std::string::npos) << refused;
  EXPECT_NE(refused.find("--time-budget 10 s: below the smallest plan's estimate for 4 nodes (1 rep of 2.50 MiB: 20."),
            std::string::npos)
      << refused;
  EXPECT_NE(refused.find("allowed: >= 20."), std::string::npos) << refused;
  EXPECT_NE(refused.find("the size is the link probe's"), std::string::npos) << refused;
  // Given repetitions: the error says they could be left to the budget.
  Config five_reps;
  five_reps.set("links.reps", "5");
  const LinksOptions given_reps = links_schema().read(five_reps, false);
  LinksPlan kept_reps = plan_links(given_reps, nodes(4, 60));
  const std::string reps_refused = test::usage_error_of([&] {
    refit_links_to_probe(kept_reps, given_reps, simulate_probe(link, kept_reps.window, probe_bounds(kept_reps)),
                         fast_memory());
  });
  EXPECT_NE(reps_refused.find("or leave --links.reps at its default"), std::string::npos) << reps_refused;
  // A budget the probed links cannot meet is refused, naming it.
  const LinksOptions o = links_schema().read(Config{}, false);
  LinksPlan tight = plan_links(o, nodes(4, 0.01));  // the assumed links fit 0.01 s (1 rep of 128 KiB)
  try {
    refit_links_to_probe(tight, o, simulate_probe(link, tight.window, probe_bounds(tight)), fast_memory());
    ADD_FAILURE() << "a 0.01 s budget on 100 Mbit/s links was accepted: " << describe_links(tight);
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--time-budget 0.01 s"), std::string::npos) << e.what();
  }
}

TEST(LinksProbeEstimate, GivenSizeStaysTheUsers) {
  Config config;
  config.set("links.bytes", "64K");
  const SimulatedLink link{50e6, 100e-6, 4.0 * MiB};
  const Refitted r = refit_on(link, nodes(4, 0), config);
  EXPECT_EQ(r.plan.bytes, 64 * KiB);
  EXPECT_EQ(r.probe.samples.back().message_bytes, 64 * KiB);  // probed at the given size only
  EXPECT_TRUE(r.plan.size_reason.empty());
  EXPECT_EQ(describe_links(r.plan).find("size auto"), std::string::npos);
  const double modelled = modelled_seconds(link, r.plan, r.probe.shift_seconds);
  EXPECT_GT(r.plan.estimate_seconds, modelled / 2);
  EXPECT_LT(r.plan.estimate_seconds, modelled * 2);
}

TEST(LinksProbeEstimate, OneHostKeepsItsSizesSmall) {
  RankLayout one_host = nodes(8, 300);
  one_host.node_of_rank.assign(8, 0);
  one_host.n_nodes = 1;
  one_host.ranks_on_node = 8;
  const LinksOptions o = links_schema().read(Config{}, true);
  const LinksPlan p = plan_links(o, one_host);
  ASSERT_TRUE(p.every_rank);
  EXPECT_EQ(probe_bounds(p).max_message_bytes, 1 * MiB);
  // However buffered its windows look: 1 MiB at most.
  LinksPlan refitted = p;
  refit_links_to_probe(refitted, o, simulate_probe(kTcp400, p.window, probe_bounds(p)), fast_memory());
  EXPECT_LE(refitted.bytes, 1 * MiB);
}

TEST(LinksProbeEstimate, NoProbeKeepsTheAssumedPlan) {
  const LinksOptions o = links_schema().read(Config{}, false);
  LinksPlan p = plan_links(o, nodes(3, 300));
  const LinksPlan before = p;
  refit_links_to_probe(p, o, LinkProbe{}, fast_memory());
  EXPECT_EQ(p.bytes, before.bytes);
  EXPECT_DOUBLE_EQ(p.estimate_seconds, before.estimate_seconds);
  EXPECT_NE(describe_links(p).find("size auto without a link probe"), std::string::npos) << describe_links(p);
}

}  // namespace
}  // namespace bws::links
