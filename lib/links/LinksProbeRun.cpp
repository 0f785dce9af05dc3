#include "links/LinksProbeRun.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <limits>
#include <memory>
#include <new>
#include <span>

namespace bws::links {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kProbeTag = 73, kShiftTag = 74;  // apart from the link map's own (71, 72)
constexpr int kWindowsPerSize = 2;             // the better of two: noise only lengthens a window
constexpr int kShifts = 20;
// [samples, shift_seconds, seconds, stop, then per sample: bytes, receive seconds, buffered fraction]
constexpr std::size_t kSharedHead = 4;
constexpr std::size_t kSharedValues = kSharedHead + 3 * kMaxProbeSamples;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Ring {
  int to = 0, from = 0;
};

struct Buffers {
  std::vector<std::byte> send, receive;  // receive: the window's messages side by side (they must not overlap)
};

// Whether every member could size its buffers for `bytes` messages: a
// member that cannot stops every member's probe, before any message.
bool resize_everywhere(Communicator& c, Buffers& b, std::uint64_t bytes, int window) {
  int ok = 1;
  try {
    b.send.assign(bytes, std::byte{0});
    b.receive.assign(bytes * static_cast<std::uint64_t>(window), std::byte{0});
  } catch (const std::bad_alloc&) {
    b = Buffers{};
    ok = 0;
  }
  int agreed[] = {ok};
  c.all_reduce(std::span<int>(agreed), Reduction::Min);
  return agreed[0] == 1;
}

// This member's better of two windows at one size, timed as the link map
// times a step's windows: the sends apart from the receives.
ProbeSample time_size(Communicator& c, const Ring& ring, Buffers& b, std::uint64_t bytes, int window) {
  double best_receive = std::numeric_limits<double>::infinity(), send_of_best = 0;
  for (int rep = 0; rep < kWindowsPerSize; ++rep) {
    c.barrier();
    const Clock::time_point start = Clock::now();
    for (int m = 0; m < window; ++m)
      c.post_receive(b.receive.data() + static_cast<std::uint64_t>(m) * bytes, bytes, ring.from, kProbeTag);
    for (int m = 0; m < window; ++m) c.post_send(b.send.data(), bytes, ring.to, kProbeTag);
    c.wait_sends();
    const double send_s = seconds_since(start);
    c.wait_all();
    const double receive_s = seconds_since(start);
    if (receive_s < best_receive) {
      best_receive = receive_s;
      send_of_best = send_s;
    }
  }
  return {bytes, best_receive, std::clamp(1 - send_of_best / best_receive, 0.0, 1.0)};
}

// The mean of kShifts 8-byte shifts after one untimed (which also opens
// the connections a lazily connecting transport has not opened yet).
double time_shifts(Communicator& c, const Ring& ring) {
  std::uint64_t out = static_cast<std::uint64_t>(c.rank()), in = 0;
  const auto shift = [&] {
    c.send_receive(reinterpret_cast<const std::byte*>(&out), ring.to, reinterpret_cast<std::byte*>(&in), ring.from,
                   sizeof out, kShiftTag);
  };
  shift();
  const Clock::time_point start = Clock::now();
  for (int k = 0; k < kShifts; ++k) shift();
  return seconds_since(start) / kShifts;
}

LinkProbe measure(Communicator& c, int window, const ProbeBounds& bounds) {
  LinkProbe probe;
  probe.window = window;
  const int n = c.size(), self = c.rank();
  const Ring ring{(self + 1) % n, (self - 1 + n) % n};
  double shift[] = {time_shifts(c, ring)};  // first: the connections are open before any window is timed
  c.all_reduce(std::span<double>(shift), Reduction::Max);
  probe.shift_seconds = shift[0];
  const Clock::time_point start = Clock::now();
  Buffers b;
  for (std::uint64_t bytes = next_probe_bytes(probe, bounds, 0, probe.stop); bytes > 0;) {
    if (!resize_everywhere(c, b, bytes, window)) {
      probe.stop = ProbeStop::MemoryBound;
      break;
    }
    const ProbeSample mine = time_size(c, ring, b, bytes, window);
    // Every member decides on the same figures: the slowest receive, the most buffered.
    double agreed[] = {mine.receive_seconds, mine.buffered_fraction, seconds_since(start)};
    c.all_reduce(std::span<double>(agreed), Reduction::Max);
    probe.samples.push_back({bytes, agreed[0], agreed[1]});
    probe.seconds = agreed[2];
    bytes = next_probe_bytes(probe, bounds, agreed[2], probe.stop);
  }
  return probe;
}

std::vector<double> encode(const LinkProbe& p) {
  std::vector<double> v(kSharedValues, 0.0);
  v[0] = static_cast<double>(p.samples.size());
  v[1] = p.shift_seconds;
  v[2] = p.seconds;
  v[3] = static_cast<double>(static_cast<int>(p.stop));
  for (std::size_t k = 0; k < p.samples.size(); ++k) {
    v[kSharedHead + 3 * k] = static_cast<double>(p.samples[k].message_bytes);
    v[kSharedHead + 3 * k + 1] = p.samples[k].receive_seconds;
    v[kSharedHead + 3 * k + 2] = p.samples[k].buffered_fraction;
  }
  return v;
}

LinkProbe decode(const std::vector<double>& v, int window) {
  LinkProbe p;
  p.window = window;
  p.shift_seconds = v[1];
  p.seconds = v[2];
  p.stop = static_cast<ProbeStop>(static_cast<int>(v[3]));
  const auto count = std::min(static_cast<std::size_t>(v[0]), static_cast<std::size_t>(kMaxProbeSamples));
  for (std::size_t k = 0; k < count; ++k)
    p.samples.push_back({static_cast<std::uint64_t>(v[kSharedHead + 3 * k]), v[kSharedHead + 3 * k + 1],
                         v[kSharedHead + 3 * k + 2]});
  return p;
}

}  // namespace

LinkProbe probe_links(Communicator& world, const std::vector<int>& member_ranks, int window,
                      const ProbeBounds& bounds) {
  const bool member = std::binary_search(member_ranks.begin(), member_ranks.end(), world.rank());
  std::vector<double> shared(kSharedValues, 0.0);  // a non-member's: the maximum is the members'
  if (const std::unique_ptr<Communicator> members = world.split_members(member))
    if (members->size() >= 2) shared = encode(measure(*members, window, bounds));
  wait_quietly_at_barrier(world);
  world.all_reduce(std::span<double>(shared), Reduction::Max);
  return decode(shared, window);
}

}  // namespace bws::links
