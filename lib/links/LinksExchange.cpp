#include "links/LinksExchange.hpp"

#include <algorithm>
#include <limits>

#include "links/LinksPayload.hpp"
#include "links/LinksSchedule.hpp"

namespace bws::links {
namespace {

constexpr int kBandwidthTag = 71, kLatencyTag = 72, kStartTag = 73, kDoneTag = 75;

struct Buffers {
  std::vector<std::byte> send;
  std::vector<std::vector<std::byte>> receive;  // one per message of the window: receives must not overlap
};

// The stamp of a direction's messages: sender, receiver and round (from
// 1), so a message of another pair, direction or round shows.
PayloadStamp stamp_of(const PairDirection& d) { return PayloadStamp{d.sender, d.receiver, d.round + 1}; }

void post_receives(Communicator& c, const PairDirection& d, Buffers& b) {
  for (auto& r : b.receive) c.post_receive(r.data(), r.size(), d.sender, kBandwidthTag);
}

void post_sends(Communicator& c, const PairDirection& d, Buffers& b) {
  // One send buffer for the whole window: MPI allows concurrent sends of one buffer.
  for (std::size_t m = 0; m < b.receive.size(); ++m)
    c.post_send(b.send.data(), b.send.size(), d.receiver, kBandwidthTag);
}

// The untimed exchange whose every received word is checked.
void verify_direction(Communicator& c, const PairDirection& d, Buffers& b, MemberRows& rows) {
  if (d.sending()) {
    post_sends(c, d, b);
    c.wait_all();
    return;
  }
  for (auto& r : b.receive) std::fill(r.begin(), r.end(), std::byte{0});
  post_receives(c, d, b);
  c.wait_all();
  for (const auto& r : b.receive) {
    const std::uint64_t problems = payload_problems(r, stamp_of(d));
    if (problems == 0) continue;
    rows.payload_problems += problems;
    if (rows.bad_messages++ == 0) rows.first_bad_peer = d.sender;
  }
}

// One timed window as this end times it. The receiver posts its receives,
// says it is ready and waits for the sender's start signal (one blocking
// send-receive, apart from the posted receives); the sender waits for
// "ready", sends "start" and then the window. The sender's time runs from
// its start to its sends' completion; the receiver's from just before its
// "ready" to its receives' completion: no byte of the window can come
// before that, so nothing is counted early. (Started at the start signal's
// arrival instead, the clock missed what the MPI library had already
// received while delivering the signal: on one host, 1286 GB/s.) Neither
// end's time waits for anything but this pair: a slow link delays the
// figures of its own two ends only (neither the receiver's own sends nor
// its previous partner lengthen its receive time, as they did in a shift
// pattern where receives were timed after the member's sends).
double time_window(Communicator& c, const PairDirection& d, Buffers& b, const SecondsClock& now) {
  std::uint64_t signal_out = 0, signal_in = 0;
  auto* out = reinterpret_cast<const std::byte*>(&signal_out);
  auto* in = reinterpret_cast<std::byte*>(&signal_in);
  if (!d.sending()) {
    post_receives(c, d, b);
    const double start = now();
    c.send_receive(out, d.sender, in, d.sender, sizeof signal_out, kStartTag);
    c.wait_all();
    return now() - start;
  }
  c.post_receive(in, sizeof signal_in, d.receiver, kStartTag);
  c.wait_all();
  const double start = now();
  c.post_send(out, sizeof signal_out, d.receiver, kStartTag);
  post_sends(c, d, b);
  c.wait_all();
  return now() - start;
}

// The best of `reps` windows. The best, not the mean: a window's time only
// grows with noise (other processes, the OS, traffic of other jobs), so
// the shortest is the closest to what the link can carry, as b_eff and
// mpiGraph's repeated runs take it.
double best_window_seconds(Communicator& c, const PairDirection& d, Buffers& b, int reps, const SecondsClock& now) {
  double best = std::numeric_limits<double>::infinity();
  for (int rep = 0; rep < reps; ++rep) best = std::min(best, time_window(c, d, b, now));
  return best;
}

// One 8-byte round trip started by this end (receive posted first).
void ping(Communicator& c, int partner, std::uint64_t& out, std::uint64_t& in) {
  c.post_receive(reinterpret_cast<std::byte*>(&in), sizeof in, partner, kLatencyTag);
  c.post_send(reinterpret_cast<const std::byte*>(&out), sizeof out, partner, kLatencyTag);
  c.wait_all();
}

// The partner's `count` + 1 pings answered. The time from one answer to
// the next ping is a round trip too, from this end, on the same path both
// ways: the best of them (infinity when count is 0).
double answer(Communicator& c, int partner, int count, std::uint64_t& in, const SecondsClock& now) {
  double best_s = std::numeric_limits<double>::infinity(), answered_at = 0;
  for (int k = 0; k <= count; ++k) {
    c.post_receive(reinterpret_cast<std::byte*>(&in), sizeof in, partner, kLatencyTag);
    c.wait_all();
    if (k > 0) best_s = std::min(best_s, now() - answered_at);
    answered_at = now();
    c.post_send(reinterpret_cast<const std::byte*>(&in), sizeof in, partner, kLatencyTag);
    c.wait_all();
  }
  return best_s;
}

// The pair's end: the last direction's receiver, its window received,
// says so, and its sender waits for that. Its sends completed when their
// bytes were in the kernel's buffers (TCP's socket buffers hold MiB), and
// bytes still queued on its link would delay the next pair's ping-pongs
// and windows: with 4 MiB windows and 2 ms added on h3's link, h3's
// next partner read 4.9 ms of latency for 2.1.
void finish_pair(Communicator& c, const PairDirection& last) {
  std::uint64_t signal = 0;
  auto* bytes = reinterpret_cast<std::byte*>(&signal);
  if (last.sending())
    c.post_receive(bytes, sizeof signal, last.receiver, kDoneTag);
  else
    c.post_send(bytes, sizeof signal, last.sender, kDoneTag);
  c.wait_all();
}

// Round trips each end starts without --links.latency: enough for the
// receive figure's correction (measure_pair).
constexpr int kCorrectionRoundTrips = 3;

// Each end in turn (the lower member first) starts `count` timed 8-byte
// round trips after one untimed, the other answers; the best of the
// 2 x `count` round trips this end timed, as starter and as answerer.
double best_round_trip_seconds(Communicator& c, int self, int partner, int count, const SecondsClock& now) {
  std::uint64_t out = static_cast<std::uint64_t>(self), in = 0;
  double best_s = std::numeric_limits<double>::infinity();
  for (const int starter : {std::min(self, partner), std::max(self, partner)}) {
    if (starter != self) {
      best_s = std::min(best_s, answer(c, partner, count, in, now));
      continue;
    }
    ping(c, partner, out, in);
    for (int k = 0; k < count; ++k) {
      const double start = now();
      ping(c, partner, out, in);
      best_s = std::min(best_s, now() - start);
    }
  }
  return best_s;
}

// First the ping-pongs, then each direction in turn. The latency figure
// is half the best round trip this end timed: the one-way time where
// the two ways are alike (a delay on one host's link shows on that host's
// pairs only, at its one-way value). The best, not the median: what a
// busy host adds to a round trip (a rank that waits a few ms for a
// delayed reply loses its core and gets it back late) is only ever added,
// and on shared cores it made the median the scheduler's (2 ms each way
// came out as 2.5-7 ms, clean pairs up to 1 ms); the best of 50 is the
// path's own. The receiver's best window time loses the
// pair's best round trip: its clock ran from "ready", one 8-byte round
// trip (ready there, start back) before the window's first byte could
// come, so what remains is the window's own time, and a delay on the
// link, which the handshake crosses both ways, cancels.
void measure_pair(Communicator& c, const LinksPlan& plan, int partner, int round, Buffers& b, MemberRows& rows,
                  const SecondsClock& now) {
  const double round_trip_s =
      best_round_trip_seconds(c, c.rank(), partner, plan.latency ? kLatencyReps / 2 : kCorrectionRoundTrips, now);
  if (plan.latency) rows.latency_s[static_cast<std::size_t>(partner)] = static_cast<float>(round_trip_s / 2);
  const double window_bytes = static_cast<double>(plan.bytes) * plan.window;
  const auto directions = pair_directions(c.rank(), partner, round);
  for (const PairDirection& d : directions) {
    if (d.sending()) stamp_payload(b.send, stamp_of(d));  // before any timing
    verify_direction(c, d, b, rows);
    double best_s = best_window_seconds(c, d, b, plan.reps, now);
    if (!d.sending() && best_s > round_trip_s) best_s -= round_trip_s;
    // The slow-pair hook scales the slowed pairs' times at both ends, as
    // a slow link would show them, and nothing else. (Holding the sends
    // back instead slowed the held member's receives too, over TCP, and
    // so links the hook did not name.)
    if (plan.slow.slows(d.sender, d.receiver)) best_s *= plan.slow.factor;
    (d.sending() ? rows.send_Bps : rows.recv_Bps)[static_cast<std::size_t>(partner)] =
        static_cast<float>(window_bytes / best_s);
  }
  finish_pair(c, directions.back());
}

}  // namespace

MemberRows measure_links(Communicator& c, const LinksPlan& plan, const RoundProgress& on_round,
                         const SecondsClock& now) {
  const int n = c.size(), self = c.rank();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  MemberRows rows;
  rows.send_Bps.assign(static_cast<std::size_t>(n), nan);
  rows.recv_Bps.assign(static_cast<std::size_t>(n), nan);
  rows.latency_s.assign(static_cast<std::size_t>(n), nan);
  Buffers b;
  b.send.resize(plan.bytes);
  b.receive.assign(static_cast<std::size_t>(plan.window), std::vector<std::byte>(plan.bytes));
  const int rounds = model::pair_rounds(n);
  for (int round = 0; round < rounds; ++round) {
    // No barrier between rounds: each window starts with its pair's own
    // handshake, which waits for the partner to finish its previous round.
    const int partner = model::round_partner(self, round, n);
    if (partner >= 0) measure_pair(c, plan, partner, round, b, rows, now);
    on_round(round + 1, rounds);
  }
  return rows;
}

}  // namespace bws::links
