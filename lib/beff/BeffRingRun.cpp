#include "beff/BeffRingRun.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <limits>
#include <span>

namespace bws::beff {
namespace {

constexpr double kCalibrationMargin = 1.2;  // aim 20% above min-time
constexpr double kMaxGrowth = 100;          // per calibration step
constexpr int kPayloadWords = kPayloadProblemKinds + 1;  // problem counts, then "this rank failed"

struct RankOfRing {
  Communicator& comm;
  ExchangePeers peers;
};

// One timed run: stamped once and checked once, outside the clock, so the
// clock sees the exchanges alone (as hpcc's does).
double time_exchanges(ExchangeMethod method, const RankOfRing& me, const RingBuffers& buffers, std::uint64_t bytes,
                      std::uint64_t looplength, std::uint32_t& iteration, PayloadTally& tally,
                      const ExchangeFaults& faults, DeviceBuffers* device) {
  prepare_timed_run(me.peers, buffers, bytes, iteration, device);
  me.comm.barrier();
  // CLOCK_MONOTONIC (steady_clock), the clock MPI_Wtime reads on Linux.
  const auto start = std::chrono::steady_clock::now();
  run_timed_exchanges(method, me.peers, buffers, bytes, looplength, device);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  check_timed_run(me.peers, buffers, bytes, iteration, tally, faults, device);
  return seconds;
}

// Grows the loop until one run of it lasts >= min-time on the slowest rank,
// then adds the margin when it only just got there: a sample a little
// faster than the calibrating one must still last min-time.
std::uint64_t calibrate(ExchangeMethod method, const RankOfRing& me, const RingBuffers& buffers, std::uint64_t bytes,
                        double min_time_seconds, std::uint32_t& iteration, PayloadTally& tally,
                        const ExchangeFaults& faults, DeviceBuffers* device) {
  std::uint64_t looplength = 1;
  while (true) {
    double seconds = time_exchanges(method, me, buffers, bytes, looplength, iteration, tally, faults, device);
    me.comm.all_reduce(std::span<double>(&seconds, 1), Reduction::Max);
    if (looplength >= kMaxLooplength) return looplength;
    if (seconds >= min_time_seconds) {
      const double with_margin = std::ceil(static_cast<double>(looplength) * kCalibrationMargin * min_time_seconds / seconds);
      return std::min(kMaxLooplength, std::max(looplength, static_cast<std::uint64_t>(with_margin)));
    }
    looplength = next_looplength(looplength, seconds, min_time_seconds);
  }
}

// Per repetition: the slowest and fastest rank's time and the mean, on rank 0.
std::vector<SampleTimes> reduce_times(const std::vector<double>& mine, const RankOfRing& me) {
  const std::size_t reps = mine.size();
  std::vector<double> max_and_negated_min(2 * reps);
  for (std::size_t i = 0; i < reps; ++i) {
    max_and_negated_min[i] = mine[i];
    max_and_negated_min[reps + i] = -mine[i];  // MAX of -t is -(MIN of t): one reduction for both
  }
  std::vector<double> reduced(2 * reps), summed(reps);
  me.comm.reduce_to_root(std::span<const double>(max_and_negated_min), reduced, Reduction::Max);
  me.comm.reduce_to_root(std::span<const double>(mine), summed, Reduction::Sum);
  const int ranks = me.comm.size();
  std::vector<SampleTimes> samples(reps);
  for (std::size_t i = 0; i < reps; ++i)
    samples[i] = {-reduced[reps + i], summed[i] / ranks, reduced[i]};
  return samples;
}

// The payload findings of every rank, per method, summed on rank 0.
std::vector<PayloadSummary> reduce_payload(const std::vector<PayloadTally>& tallies, int world_rank,
                                           const RankOfRing& me) {
  const std::size_t methods = tallies.size();
  std::vector<std::uint64_t> words(methods * kPayloadWords, 0), summed(words.size(), 0);
  std::vector<int> failing(methods, INT_MAX), lowest(methods, INT_MAX);
  for (std::size_t m = 0; m < methods; ++m) {
    for (std::size_t k = 0; k < kPayloadProblemKinds; ++k) words[m * kPayloadWords + k] = tallies[m].counts[k];
    const bool failed = tallies[m].total() > 0;
    words[m * kPayloadWords + kPayloadProblemKinds] = failed ? 1 : 0;
    if (failed) failing[m] = world_rank;
  }
  me.comm.reduce_to_root(std::span<const std::uint64_t>(words), summed, Reduction::Sum);
  me.comm.reduce_to_root(std::span<const int>(failing), lowest, Reduction::Min);
  std::vector<PayloadSummary> out(methods);
  for (std::size_t m = 0; m < methods; ++m) {
    for (std::size_t k = 0; k < kPayloadProblemKinds; ++k) out[m].tally.counts[k] = summed[m * kPayloadWords + k];
    out[m].failing_ranks = static_cast<int>(summed[m * kPayloadWords + kPayloadProblemKinds]);
    out[m].first_failing_rank = lowest[m] == INT_MAX ? -1 : lowest[m];
  }
  return out;
}

SizeMeasurement measure_size(const RankOfRing& me, const RingRunSettings& s, const RingBuffers& buffers,
                             std::uint64_t bytes, std::uint32_t& iteration) {
  SizeMeasurement size;
  size.message_bytes = bytes;
  std::vector<PayloadTally> tallies(s.methods.size());
  // One untimed exchange per method first: connections are set up lazily,
  // and a slow first contact must not shorten the calibrated loop.
  for (std::size_t m = 0; m < s.methods.size(); ++m)
    run_exchanges(s.methods[m], me.peers, buffers, bytes, 1, iteration, tallies[m], s.faults, s.device);
  // Every method calibrates; the longest loop serves all, so the faster
  // method's samples also last min-time.
  size.looplength = 1;
  size.own_best_seconds = std::numeric_limits<double>::infinity();
  for (std::size_t m = 0; m < s.methods.size(); ++m)
    size.looplength = std::max(size.looplength, calibrate(s.methods[m], me, buffers, bytes, s.min_time_seconds,
                                                          iteration, tallies[m], s.faults, s.device));
  for (std::size_t m = 0; m < s.methods.size(); ++m) {
    const ExchangeMethod method = s.methods[m];
    run_exchanges(method, me.peers, buffers, bytes, 1, iteration, tallies[m], s.faults, s.device);  // warm-up
    std::vector<double> mine(static_cast<std::size_t>(s.reps));
    for (double& seconds : mine) {
      seconds = time_exchanges(method, me, buffers, bytes, size.looplength, iteration, tallies[m], s.faults, s.device);
      size.own_best_seconds = std::min(size.own_best_seconds, seconds);
    }
    // Verified again after the samples: the path still delivers every
    // message right after the timed runs, with the same buffers.
    run_exchanges(method, me.peers, buffers, bytes, 1, iteration, tallies[m], s.faults, s.device);
    MethodSamples samples;
    samples.method = method;
    samples.reps = reduce_times(mine, me);
    size.methods.push_back(std::move(samples));
  }
  const std::vector<PayloadSummary> payload = reduce_payload(tallies, s.world_rank, me);
  for (std::size_t m = 0; m < s.methods.size(); ++m) size.methods[m].payload = payload[m];
  return size;
}

}  // namespace

std::uint64_t next_looplength(std::uint64_t looplength, double seconds, double min_time_seconds) {
  double growth = kMaxGrowth;
  if (seconds > 0) growth = std::min(kMaxGrowth, kCalibrationMargin * min_time_seconds / seconds);
  const double next = std::ceil(static_cast<double>(looplength) * growth);
  const std::uint64_t grown = next >= static_cast<double>(kMaxLooplength) ? kMaxLooplength
                                                                          : static_cast<std::uint64_t>(next);
  return std::min(kMaxLooplength, std::max(looplength + 1, grown));
}

std::vector<SizeMeasurement> measure_ring(Communicator& comm, const std::vector<int>& order,
                                          const RingRunSettings& settings, const RingBuffers& buffers,
                                          std::uint32_t& iteration,
                                          const std::function<void(std::size_t)>& progress) {
  const int rank = comm.rank();
  const RingPlace place = place_in_ring(order, rank);
  const RankOfRing me{comm, ExchangePeers{&comm, rank, place.left, place.right}};
  if (settings.device) load_device_patterns(me.peers, buffers, *settings.device);
  std::vector<SizeMeasurement> sizes;
  for (std::size_t i = 0; i < settings.sizes_bytes.size(); ++i) {
    sizes.push_back(measure_size(me, settings, buffers, settings.sizes_bytes[i], iteration));
    if (rank == 0 && progress) progress(i);
  }
  return sizes;
}

}  // namespace bws::beff
