#pragma once
// The link probe's rule: which message size measures the links rather than
// the buffers in front of them, and how long a window of messages takes on
// them, from a short measurement before the run (links/LinksProbeRun.hpp).
// Over TCP a send completes once its bytes are in the kernel's socket
// buffers: a window that fits in them is timed at memory speed on the
// sending side (64 KiB x 4 on 400 Mbit/s links gave node verdicts on a
// clean network, 4 MiB messages none). The probe doubles the window's
// message until the sender waits for the link for all but a stated
// fraction of the window's time and the time per byte has stopped falling.
// Pure: samples in, decisions out (tests/unit/links_probe_test.cpp).
#include <cstdint>
#include <string>
#include <vector>

namespace bws::links {

// A window's sends may complete this fraction of its time before its
// receives (bytes still in buffers), and one doubling of the size may
// still gain this fraction of receive rate (a fixed cost per window not
// yet amortised), for a size to count as measuring the link.
inline constexpr double kBufferedFraction = 0.1;
inline constexpr std::uint64_t kFirstProbeBytes = 64 * 1024;  // above the usual eager limits (TCP's 64 KiB)
// An automatic size never exceeds this (nor what memory allows): a window
// of 8 such messages is 512 MiB, 5 ms at 100 GB/s and 4 s at 1 Gb/s.
inline constexpr std::uint64_t kLargestAutoBytes = std::uint64_t{64} << 20;
inline constexpr int kMaxProbeSamples = 16;
inline constexpr std::uint64_t kProbeRoundingBytes = 64 * 1024;  // an extrapolated size is a multiple of this
inline constexpr double kUnseenBufferFraction = 0.5;  // buffered more: the buffer counts as the whole window

// One probed size: the same window of messages each way that the link map
// times, every member sending to the next and receiving from the previous.
struct ProbeSample {
  std::uint64_t message_bytes = 0;  // each of the window's messages
  double receive_seconds = 0;       // the slowest member's best window, until its receives completed
  double buffered_fraction = 0;     // the most any member saw: 1 - send time / receive time
};

enum class ProbeStop { Settled, GivenSize, MemoryBound, TimeBound };

struct LinkProbe {
  int window = 0;                   // messages per window, in every sample
  std::vector<ProbeSample> samples; // doubling sizes
  double shift_seconds = 0;         // one 8-byte shift (to the next, from the previous), the slowest member's mean
  double seconds = 0;               // what the probe took
  ProbeStop stop = ProbeStop::Settled;
  bool done() const { return !samples.empty(); }
};

struct ProbeBounds {
  std::uint64_t max_message_bytes = kLargestAutoBytes;  // memory (and kLargestAutoBytes)
  double max_seconds = 2;                               // the probe's time
  std::uint64_t given_bytes = 0;                        // an explicit size: probe up to it only (0: auto)
};

// Whether the last sample measures the link: buffered at most
// kBufferedFraction, and its receive rate at most that much above the
// previous size's (time per byte has stopped falling).
bool probe_settled(const std::vector<ProbeSample>& samples, int window);

// The next size to probe after `samples` (taken in `elapsed_seconds`), or 0
// with `stop` set: settled, the given size reached, the next size above
// the memory bound, or its two windows (about 4x the last) past the time bound.
std::uint64_t next_probe_bytes(const LinkProbe& probe, const ProbeBounds& bounds, double elapsed_seconds,
                               ProbeStop& stop);

struct SizeChoice {
  std::uint64_t message_bytes = 0;
  std::string why;  // one phrase for the plan line
};

// The message size of an automatic plan. Settled: the smallest probed size
// buffered at most kBufferedFraction with a receive rate within that
// fraction of the last's. Stopped by a bound while still buffered: the
// buffer seen (fraction x window bytes; the whole window when more than
// kUnseenBufferFraction) over kBufferedFraction, in messages of the
// window, up to max_message_bytes. Else the largest probed.
SizeChoice choose_message_bytes(const LinkProbe& probe, std::uint64_t max_message_bytes);

// Seconds of one window of `window_bytes` (messages x size) each way, every
// member at once: the probe's curve, linear between its sizes and
// proportional beyond the largest; below the smallest, the smallest's time.
double probed_window_seconds(const LinkProbe& probe, double window_bytes);

// "48.2 MB/s at 8 x 8.00 MiB, 6 % buffered, 8 B shift 95.0 us, 1.31 s, settled"
std::string probe_text(const LinkProbe& probe);

}  // namespace bws::links
