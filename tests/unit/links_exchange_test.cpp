// links/LinksExchange (the link map's measurement) on a simulated network
// (SimulatedLinks.hpp: one virtual clock per member, links of known
// speed), then the stored tables and /flags as a run makes them. The
// expected figures are worked out by hand from the network: a window of
// 2 x 4096 B at 1e6 B/s takes 8.192 ms; the sender's time also holds its
// 8-byte start signal (8 us at 1e6 B/s); the receiver's starts at its
// "ready" and loses the pair's best round trip (which is the handshake's);
// an 8-byte message takes 8 us on the NIC plus 10 us of latency plus the
// delays of both ends' links, and the latency figure is half a round
// trip, so one message's time.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "SimulatedLinks.hpp"
#include "core/CatalogEntry.hpp"
#include "links/LinksExchange.hpp"
#include "links/LinksFlags.hpp"
#include "links/LinksTables.hpp"

namespace bws::links {
namespace {

using testing_support::SimulatedHost;

constexpr double kRateBps = 1e6, kLatencySeconds = 10e-6;
constexpr double kSendBps = 8192.0 / (8200 / kRateBps);  // the window and the start signal on the NIC
constexpr double kReceiveBps = kRateBps;
constexpr double kLatencyFigureSeconds = 8 / kRateBps + kLatencySeconds;  // 18 us

LinksPlan small_plan() {
  LinksPlan plan;
  plan.bytes = 4096;
  plan.window = 2;
  plan.reps = 2;
  plan.latency = true;
  return plan;
}

// Every member's rows, measured on N threads over the simulated hosts.
std::vector<MemberRows> measure(const std::vector<SimulatedHost>& hosts, const LinksPlan& plan = small_plan()) {
  testing_support::SimulatedNetwork network(hosts, kLatencySeconds);
  std::vector<MemberRows> rows(hosts.size());
  std::vector<std::thread> threads;
  for (int rank = 0; rank < network.size(); ++rank)
    threads.emplace_back([&, rank] {
      testing_support::SimulatedCommunicator c(network, rank);
      rows[static_cast<std::size_t>(rank)] = measure_links(c, plan, [](int, int) {}, [&c] { return c.now(); });
    });
  for (auto& t : threads) t.join();
  return rows;
}

std::vector<SimulatedHost> clean(int n) { return std::vector<SimulatedHost>(static_cast<std::size_t>(n)); }

double at(const std::vector<float>& row, int j) { return row[static_cast<std::size_t>(j)]; }

// /flags as a run stores it: each row reduced to its record, the tables
// rank 0 makes, the catalog entry's rule (k 3.5, fraction 0.75).
std::vector<std::string> verdicts(const std::vector<MemberRows>& rows) {
  std::vector<NodeRecord> records;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::string host = "n";  // not "n" + to_string(i): GCC 12 warns (-Wrestrict) on its inlined copy
    host += std::to_string(i);
    records.push_back(summarize_member(rows[i], static_cast<int>(i), static_cast<int>(i), host));
  }
  const Table flags = links_flags(links_tables(records, "simulated"), FlagInputs{3.5, 0.75, nullptr});
  std::vector<std::string> out;
  for (std::size_t r = 0; r < flags.rows(); ++r)
    out.push_back(flags.get_string(r, "metric") + " " + flags.get_string(r, "host"));
  return out;
}

void expect_relative(double value, double expected, const std::string& what) {
  EXPECT_NEAR(value, expected, 1e-6 * expected) << what;
}

TEST(LinksExchange, EveryOrderedPairGetsItsFiguresOnACleanNetwork) {
  for (int n = 2; n <= 9; ++n) {
    const std::vector<MemberRows> rows = measure(clean(n));
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const std::string pair = "n=" + std::to_string(n) + " " + std::to_string(i) + "->" + std::to_string(j);
        const MemberRows& r = rows[static_cast<std::size_t>(i)];
        if (i == j) {
          EXPECT_TRUE(std::isnan(at(r.send_Bps, j)) && std::isnan(at(r.recv_Bps, j)) && std::isnan(at(r.latency_s, j)))
              << pair;
          continue;
        }
        expect_relative(at(r.send_Bps, j), kSendBps, "send " + pair);
        expect_relative(at(r.recv_Bps, j), kReceiveBps, "receive " + pair);
        expect_relative(at(r.latency_s, j), kLatencyFigureSeconds, "latency " + pair);
      }
    for (const MemberRows& r : rows) EXPECT_EQ(r.payload_problems, 0u);
    EXPECT_TRUE(verdicts(rows).empty()) << "n=" << n;
  }
}

// The issue the pair rounds fix: a NIC 10 times slower both ways was named
// for sending only, because receive times were taken after the member's own
// sends (to the slow NIC among them) had completed.
TEST(LinksExchange, NicSlowBothWaysIsNamedOutAndIn) {
  for (const int n : {4, 5, 8}) {
    std::vector<SimulatedHost> hosts = clean(n);
    hosts[2] = {kRateBps / 10, kRateBps / 10, 0};
    const std::vector<MemberRows> rows = measure(hosts);
    EXPECT_EQ(verdicts(rows), (std::vector<std::string>{"links.node_out n2", "links.node_in n2"})) << "n=" << n;
    for (int j = 0; j < n; ++j) {
      if (j == 2) continue;
      expect_relative(at(rows[2].send_Bps, j), 8192.0 / (8200 / (kRateBps / 10)), "n2 sends to " + std::to_string(j));
      expect_relative(at(rows[2].recv_Bps, j), kRateBps / 10, "n2 receives from " + std::to_string(j));
    }
  }
}

// A slow sender lowers its own pairs' figures and nothing else: no fast
// host's receive figure from a fast peer moves, and the slow sender's own
// receives stay at the full rate. Likewise a slow receiver.
TEST(LinksExchange, ASlowSenderOrReceiverLowersOnlyItsOwnPairs) {
  for (const int n : {4, 8}) {
    for (const bool slow_out : {true, false}) {
      const int slow = slow_out ? 1 : n - 1;
      std::vector<SimulatedHost> hosts = clean(n);
      (slow_out ? hosts[slow].out_Bps : hosts[slow].in_Bps) = kRateBps / 10;
      const std::vector<MemberRows> rows = measure(hosts);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          if (i == j) continue;
          const std::string pair = "n=" + std::to_string(n) + " " + std::to_string(i) + "->" + std::to_string(j);
          const bool slowed = slow_out ? i == slow : j == slow;  // the slow NIC's direction of the pair i -> j
          expect_relative(at(rows[static_cast<std::size_t>(i)].send_Bps, j),
                          slowed ? 8192.0 / (8200 / (kRateBps / 10)) : kSendBps, "send " + pair);
          expect_relative(at(rows[static_cast<std::size_t>(j)].recv_Bps, i), slowed ? kRateBps / 10 : kReceiveBps,
                          "receive " + pair);
        }
      const std::string expected = (slow_out ? "links.node_out n" : "links.node_in n") + std::to_string(slow);
      EXPECT_EQ(verdicts(rows), std::vector<std::string>{expected}) << "n=" << n;
    }
  }
}

// 1 ms added each way on one host's link: its pairs, and only its pairs,
// show it at the one-way value (half the round trip), whatever N; the
// bandwidth figures do not move (the start signal takes the same delay as
// the window, on a network whose rate the delay does not limit).
TEST(LinksExchange, ADelayedLinkShowsOnItsHostsPairsOnlyAtItsOneWayValue) {
  for (const int n : {4, 5, 8}) {
    for (const int delayed : {0, n / 2, n - 1}) {
      std::vector<SimulatedHost> hosts = clean(n);
      hosts[static_cast<std::size_t>(delayed)].delay_s = 1e-3;
      const std::vector<MemberRows> rows = measure(hosts);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          if (i == j) continue;
          const std::string pair = "n=" + std::to_string(n) + " delayed " + std::to_string(delayed) + ": " +
                                   std::to_string(i) + "->" + std::to_string(j);
          const MemberRows& r = rows[static_cast<std::size_t>(i)];
          const bool own = i == delayed || j == delayed;
          expect_relative(at(r.latency_s, j), kLatencyFigureSeconds + (own ? 1e-3 : 0), "latency " + pair);
          expect_relative(at(r.send_Bps, j), kSendBps, "send " + pair);
          expect_relative(at(r.recv_Bps, j), kReceiveBps, "receive " + pair);
        }
      EXPECT_TRUE(verdicts(rows).empty()) << "n=" << n;
    }
  }
}

// Without --links.latency the latency row stays NaN, and the receive
// figure still loses the handshake's round trip (from 3 ping-pongs each).
TEST(LinksExchange, WithoutLatencyTheReceiveFigureIsStillTheWindowsOwn) {
  LinksPlan plan = small_plan();
  plan.latency = false;
  std::vector<SimulatedHost> hosts = clean(5);
  hosts[3].delay_s = 1e-3;
  const std::vector<MemberRows> rows = measure(hosts, plan);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) {
      if (i == j) continue;
      const std::string pair = std::to_string(i) + "->" + std::to_string(j);
      EXPECT_TRUE(std::isnan(at(rows[static_cast<std::size_t>(i)].latency_s, j))) << pair;
      expect_relative(at(rows[static_cast<std::size_t>(i)].send_Bps, j), kSendBps, "send " + pair);
      expect_relative(at(rows[static_cast<std::size_t>(i)].recv_Bps, j), kReceiveBps, "receive " + pair);
    }
}

// The unit tests' hook (BWSURVEY_LINKS_SLOW_PAIR) scales the slowed pair's
// time at both of its ends and nothing else, and the pair is named.
TEST(LinksExchange, TheSlowPairHookLowersThatPairAtBothEndsOnly) {
  LinksPlan plan = small_plan();
  plan.slow = parse_slow_pair("1,6,10", 8);
  const std::vector<MemberRows> rows = measure(clean(8), plan);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      if (i == j) continue;
      const double factor = i == 1 && j == 6 ? 10 : 1;
      const std::string pair = std::to_string(i) + "->" + std::to_string(j);
      expect_relative(at(rows[static_cast<std::size_t>(i)].send_Bps, j), kSendBps / factor, "send " + pair);
      expect_relative(at(rows[static_cast<std::size_t>(j)].recv_Bps, i), kReceiveBps / factor, "receive " + pair);
    }
  EXPECT_EQ(verdicts(rows), std::vector<std::string>{"links.pair n1->n6"});
}

}  // namespace
}  // namespace bws::links
