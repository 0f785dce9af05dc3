#include "links/LinksExchange.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <span>

#include "links/LinksPayload.hpp"
#include "links/LinksSchedule.hpp"

namespace bws::links {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kBandwidthTag = 71, kLatencyTag = 72;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Buffers {
  std::vector<std::byte> send;
  std::vector<std::vector<std::byte>> receive;  // one per message of the window: receives must not overlap
};

struct Step {
  int self = 0, to = 0, from = 0, index = 0;
};

void post_window(Communicator& c, const Step& s, Buffers& b) {
  for (auto& r : b.receive) c.post_receive(r.data(), r.size(), s.from, kBandwidthTag);
}

void send_window(Communicator& c, const Step& s, Buffers& b) {
  // One send buffer for the whole window: MPI allows concurrent sends of one buffer.
  for (std::size_t m = 0; m < b.receive.size(); ++m) c.post_send(b.send.data(), b.send.size(), s.to, kBandwidthTag);
}

// The untimed exchange whose every received word is checked.
void verify_step(Communicator& c, const Step& s, Buffers& b, MemberRows& rows) {
  for (auto& r : b.receive) std::fill(r.begin(), r.end(), std::byte{0});
  post_window(c, s, b);
  send_window(c, s, b);
  c.wait_all();
  const PayloadStamp expected{s.from, s.self, s.index};
  for (const auto& r : b.receive) {
    const std::uint64_t problems = payload_problems(r, expected);
    if (problems == 0) continue;
    rows.payload_problems += problems;
    if (rows.bad_messages++ == 0) rows.first_bad_peer = s.from;
  }
}

// The best of `reps` timed windows, in seconds, for the sends and for the
// receives apart (as mpiGraph times them): the sends complete when this
// member's messages to `to` have gone, the receives when those from `from`
// have come, so a slow link delays the figure of its own two ends only.
// The best, not the mean: a window's time only grows with noise (other
// processes, the OS, traffic of other jobs), so the shortest is the closest
// to what the link can carry, as b_eff and mpiGraph's repeated runs take it.
struct WindowTimes {
  double send_s = std::numeric_limits<double>::infinity();
  double receive_s = std::numeric_limits<double>::infinity();
};

WindowTimes time_windows(Communicator& c, const Step& s, Buffers& b, int reps) {
  WindowTimes best;
  for (int rep = 0; rep < reps; ++rep) {
    const Clock::time_point start = Clock::now();
    post_window(c, s, b);
    send_window(c, s, b);
    c.wait_sends();
    const double send_s = seconds_since(start);
    c.wait_all();
    best.send_s = std::min(best.send_s, send_s);
    best.receive_s = std::min(best.receive_s, seconds_since(start));
  }
  return best;
}

// One-way time of an 8-byte message: the median over kLatencyReps shifts
// (each member sends 8 B to `to` while receiving 8 B from `from`, one
// MPI_Sendrecv) of one shift's time, after one untimed shift. The median:
// a shift waits for its predecessor in the cycle, so single shifts carry
// others' delays; the median drops the outliers both ways.
double time_latency(Communicator& c, const Step& s) {
  std::uint64_t out = static_cast<std::uint64_t>(s.self), in = 0;
  auto shift = [&] {
    c.send_receive(reinterpret_cast<const std::byte*>(&out), s.to, reinterpret_cast<std::byte*>(&in), s.from,
                   sizeof out, kLatencyTag);
  };
  shift();
  std::vector<double> times(kLatencyReps);
  for (double& t : times) {
    const Clock::time_point start = Clock::now();
    shift();
    t = seconds_since(start);
  }
  std::nth_element(times.begin(), times.begin() + kLatencyReps / 2, times.end());
  return times[kLatencyReps / 2];
}

}  // namespace

MemberRows measure_links(Communicator& c, const LinksPlan& plan, const std::function<void(int)>& on_step) {
  const int n = c.size(), self = c.rank();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  MemberRows rows;
  rows.send_Bps.assign(static_cast<std::size_t>(n), nan);
  rows.recv_Bps.assign(static_cast<std::size_t>(n), nan);
  rows.latency_s.assign(static_cast<std::size_t>(n), nan);
  Buffers b;
  b.send.resize(plan.bytes);
  b.receive.assign(static_cast<std::size_t>(plan.window), std::vector<std::byte>(plan.bytes));
  const double window_bytes = static_cast<double>(plan.bytes) * plan.window;
  for (int k = 1; k < n; ++k) {
    const Step s{self, send_partner(self, k, n), receive_partner(self, k, n), k};
    stamp_payload(b.send, PayloadStamp{self, s.to, k});  // once per step, before any timing
    verify_step(c, s, b, rows);
    c.barrier();  // the step's timed windows start together
    WindowTimes best = time_windows(c, s, b, plan.reps);
    // The slow-pair hook scales the slowed pairs' times at both ends, as
    // a slow link would show them, and nothing else. (Holding the sends
    // back instead slowed the held member's receives too, over TCP, and
    // so links the hook did not name.)
    if (plan.slow.slows(self, s.to)) best.send_s *= plan.slow.factor;
    if (plan.slow.slows(s.from, self)) best.receive_s *= plan.slow.factor;
    rows.send_Bps[static_cast<std::size_t>(s.to)] = static_cast<float>(window_bytes / best.send_s);
    rows.recv_Bps[static_cast<std::size_t>(s.from)] = static_cast<float>(window_bytes / best.receive_s);
    if (plan.latency) rows.latency_s[static_cast<std::size_t>(s.to)] = static_cast<float>(time_latency(c, s));
    on_step(k);
  }
  return rows;
}

}  // namespace bws::links
