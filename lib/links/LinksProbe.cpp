#include "links/LinksProbe.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/FormatText.hpp"
#include "core/Sizes.hpp"

namespace bws::links {
namespace {

double window_bytes(const ProbeSample& s, int window) {
  return static_cast<double>(window) * static_cast<double>(s.message_bytes);
}

double receive_rate(const ProbeSample& s, int window) { return window_bytes(s, window) / s.receive_seconds; }

std::string percent_text(double fraction) { return format_text("%.0f %%", 100 * fraction); }

const char* stop_text(ProbeStop stop) {
  switch (stop) {
    case ProbeStop::Settled: return "settled";
    case ProbeStop::GivenSize: return "at the given size";
    case ProbeStop::MemoryBound: return "memory bound";
    case ProbeStop::TimeBound: return "time bound";
  }
  return "";
}

// The most bytes any window left in buffers. A buffer does not shrink as
// windows grow, so one sample that measured none (noise: a sender held
// back as long as its receives) does not hide what a smaller window showed.
double buffer_seen_bytes(const std::vector<ProbeSample>& samples, int window) {
  double most = 0;
  for (const ProbeSample& s : samples) most = std::max(most, s.buffered_fraction * window_bytes(s, window));
  return most;
}

// A sample's buffered share of its window: its own, or the buffer seen
// anywhere over its window bytes, whichever is larger.
double buffered_share(const std::vector<ProbeSample>& samples, const ProbeSample& s, int window) {
  return std::max(s.buffered_fraction, buffer_seen_bytes(samples, window) / window_bytes(s, window));
}

// Window bytes at which a fixed cost per window (latency, a transport's
// ramp) is kBufferedFraction of it, from the last two samples' marginal
// rate; at most 4x the last window (two doublings), and 2x when the
// marginal rate cannot be read (times not growing with size: noise).
double fixed_cost_window_bytes(const std::vector<ProbeSample>& samples, int window) {
  if (samples.size() < 2) return 0;
  const ProbeSample& last = samples.back();
  const ProbeSample& previous = samples[samples.size() - 2];
  if (receive_rate(last, window) <= (1 + kBufferedFraction) * receive_rate(previous, window)) return 0;
  const double x1 = window_bytes(previous, window), x2 = window_bytes(last, window);
  const double dt = last.receive_seconds - previous.receive_seconds;
  if (dt <= 0) return 2 * x2;
  const double marginal_Bps = (x2 - x1) / dt;
  const double fixed_seconds = std::max(0.0, last.receive_seconds - x2 / marginal_Bps);
  return std::min(4 * x2, fixed_seconds * marginal_Bps / kBufferedFraction);
}

std::string window_text(int window, std::uint64_t message_bytes) {
  return std::to_string(window) + " x " + format_bytes(static_cast<double>(message_bytes));
}

}  // namespace

bool probe_settled(const std::vector<ProbeSample>& samples, int window) {
  if (samples.size() < 2) return false;
  const ProbeSample& last = samples.back();
  const ProbeSample& previous = samples[samples.size() - 2];
  return buffered_share(samples, last, window) <= kBufferedFraction &&
         receive_rate(last, window) <= (1 + kBufferedFraction) * receive_rate(previous, window);
}

std::uint64_t next_probe_bytes(const LinkProbe& probe, const ProbeBounds& bounds, double elapsed_seconds,
                               ProbeStop& stop) {
  const std::vector<ProbeSample>& s = probe.samples;
  if (s.empty()) {
    const std::uint64_t first = bounds.given_bytes > 0 ? bounds.given_bytes : bounds.max_message_bytes;
    return std::min(kFirstProbeBytes, first);
  }
  const ProbeSample& last = s.back();
  if (bounds.given_bytes > 0 && last.message_bytes >= bounds.given_bytes) {
    stop = ProbeStop::GivenSize;
    return 0;
  }
  if (bounds.given_bytes == 0 && probe_settled(s, probe.window)) {
    stop = ProbeStop::Settled;
    return 0;
  }
  std::uint64_t next = 2 * last.message_bytes;
  if (bounds.given_bytes > 0) next = std::min(next, bounds.given_bytes);
  if (next > bounds.max_message_bytes || s.size() >= static_cast<std::size_t>(kMaxProbeSamples)) {
    stop = ProbeStop::MemoryBound;
    return 0;
  }
  // Two windows of the next size, each about as long per byte as the last.
  const double next_seconds =
      2 * last.receive_seconds * static_cast<double>(next) / static_cast<double>(last.message_bytes);
  if (elapsed_seconds + next_seconds > bounds.max_seconds) {
    stop = ProbeStop::TimeBound;
    return 0;
  }
  return next;
}

SizeChoice choose_message_bytes(const LinkProbe& probe, std::uint64_t max_message_bytes) {
  if (!probe.done()) return {0, "no probe"};
  const int w = probe.window;
  const std::vector<ProbeSample>& s = probe.samples;
  const ProbeSample& last = s.back();
  if (probe.stop == ProbeStop::Settled) {
    for (const ProbeSample& sample : s)
      if (buffered_share(s, sample, w) <= kBufferedFraction &&
          receive_rate(sample, w) >= (1 - kBufferedFraction) * receive_rate(last, w))
        return {sample.message_bytes, "the smallest probed size buffered <= " + percent_text(kBufferedFraction) +
                                          " at the link's rate"};
  }
  // Stopped by a bound: a window long enough that the buffers are
  // kBufferedFraction of it, and the fixed cost per window too. Buffered
  // more than half, the last window has not shown the buffer's size: TCP's
  // autotuning grows a connection's buffers with the transfer (3.67 MiB
  // seen at 8 MiB windows, 2.20 MiB at 4 MiB, on one 400 Mbit/s link), so
  // the buffer is taken as the whole window.
  const double buffer_bytes = last.buffered_fraction > kUnseenBufferFraction ? window_bytes(last, w)
                                                                             : buffer_seen_bytes(s, w);
  const double for_buffer =
      buffer_bytes / window_bytes(last, w) > kBufferedFraction ? buffer_bytes / kBufferedFraction : 0;
  const double for_fixed_cost = fixed_cost_window_bytes(s, w);
  if (for_buffer <= 0 && for_fixed_cost <= 0)
    return {last.message_bytes, std::string("the largest probed size, stopped by the ") + stop_text(probe.stop)};
  const double needed =
      std::ceil(std::max(for_buffer, for_fixed_cost) / w / kProbeRoundingBytes) * kProbeRoundingBytes;
  const auto bytes = std::min(max_message_bytes, std::max(last.message_bytes, static_cast<std::uint64_t>(needed)));
  const std::string when = " when the " + std::string(stop_text(probe.stop)) + " stopped the probe: ";
  if (for_buffer >= for_fixed_cost)
    return {bytes, format_bytes(buffer_bytes) + " buffered at " + window_text(w, last.message_bytes) + when +
                       "a window of 10x that"};
  return {bytes, "the rate still rising at " + window_text(w, last.message_bytes) + when +
                     "a window whose fixed cost is " + percent_text(kBufferedFraction)};
}

double probed_window_seconds(const LinkProbe& probe, double bytes) {
  if (!probe.done()) return -1;
  const int w = probe.window;
  const std::vector<ProbeSample>& s = probe.samples;
  if (bytes <= window_bytes(s.front(), w)) return s.front().receive_seconds;
  for (std::size_t k = 1; k < s.size(); ++k) {
    const double x0 = window_bytes(s[k - 1], w), x1 = window_bytes(s[k], w);
    if (bytes <= x1) {
      const double t0 = s[k - 1].receive_seconds, t1 = s[k].receive_seconds;
      return t0 + (t1 - t0) * (bytes - x0) / (x1 - x0);
    }
  }
  return s.back().receive_seconds * bytes / window_bytes(s.back(), w);
}

std::string probe_text(const LinkProbe& probe) {
  if (!probe.done()) return "no link probe";
  const ProbeSample& last = probe.samples.back();
  return format_rate(receive_rate(last, probe.window)) + " at " + window_text(probe.window, last.message_bytes) +
         ", " + percent_text(last.buffered_fraction) + " buffered" +
         format_text(", 8 B shift %.3g us, probe %.3g s, %s", probe.shift_seconds * 1e6, probe.seconds,
                     stop_text(probe.stop));
}

}  // namespace bws::links
