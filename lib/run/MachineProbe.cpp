#include "run/MachineProbe.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "topology/SpinWait.hpp"

namespace bws::run {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double kBandwidthProbeSeconds = 0.012;  // each of the two memcpy probes
constexpr double kChaseProbeSeconds = 0.008;
constexpr double kSyncProbeSeconds = 0.004;
constexpr std::uint64_t MiB = 1ull << 20;
constexpr std::uint64_t kMinArrayBytes = 16 * MiB;   // each of source and destination, beyond any per-core cache
constexpr std::uint64_t kMaxArrayBytes = 256 * MiB;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// A buffer of new pages (not yet touched).
struct RawBuffer {
  explicit RawBuffer(std::uint64_t bytes) : data(new unsigned char[bytes]), size(bytes) {}
  std::unique_ptr<unsigned char[]> data;
  std::uint64_t size;
};

// The steady clock's smallest step seen in a few reads.
double timer_resolution() {
  double best = 1;
  for (int k = 0; k < 50; ++k) {
    const auto a = Clock::now();
    auto b = Clock::now();
    while (b == a) b = Clock::now();
    best = std::min(best, std::chrono::duration<double>(b - a).count());
  }
  return best;
}

// `threads` threads each copy their slice of src into dst, over and over,
// for about `seconds`; bytes read + written per second of the fastest round.
// The first round writes new pages: its rate is the first-touch rate.
struct CopyRates {
  double copy_Bps = 0;
  double first_touch_Bps = 0;
};
CopyRates copy_rates(int threads, std::uint64_t bytes_each, double seconds) {
  RawBuffer src(bytes_each), dst(bytes_each);
  const std::uint64_t slice = bytes_each / static_cast<std::uint64_t>(threads) / 4096 * 4096;
  auto round = [&](bool first) {
    std::vector<std::thread> team;
    const auto start = Clock::now();
    for (int t = 0; t < threads; ++t)
      team.emplace_back([&, t] {
        unsigned char* s = src.data.get() + static_cast<std::uint64_t>(t) * slice;
        unsigned char* d = dst.data.get() + static_cast<std::uint64_t>(t) * slice;
        if (first) std::memset(s, 1, slice);  // first touch of both arrays
        if (first) std::memset(d, 0, slice);
        else std::memcpy(d, s, slice);
      });
    for (std::thread& th : team) th.join();
    return seconds_since(start);
  };
  CopyRates rates;
  const double total = static_cast<double>(slice) * threads;
  rates.first_touch_Bps = 2 * total / std::max(round(true), 1e-9);
  const auto start = Clock::now();
  double best = 1e9;
  do best = std::min(best, round(false));
  while (seconds_since(start) < seconds);
  rates.copy_Bps = 2 * total / std::max(best, 1e-9);
  return rates;
}

// A dependent load through a cycle that jumps over the whole array (an LCG
// of full period: n a power of two, c odd, a = 1 mod 4), as a random walk
// does: seconds per load.
double dependent_load(std::uint64_t bytes, double seconds) {
  std::uint64_t n = 1;
  while (n * 2 * 8 <= bytes) n *= 2;
  std::vector<std::uint64_t> next(n);
  for (std::uint64_t i = 0; i < n; ++i) next[i] = (i * 6364136223846793005ull + 1442695040888963407ull) & (n - 1);
  std::uint64_t p = 0, loads = 0;
  const auto start = Clock::now();
  double elapsed = 0;
  do {
    for (int k = 0; k < 4096; ++k) p = next[p];
    loads += 4096;
    elapsed = seconds_since(start);
  } while (elapsed < seconds);
  static volatile std::uint64_t sink;
  sink = p;
  (void)sink;
  return elapsed / static_cast<double>(loads);
}

// Two threads hand a word back and forth as the Team's barrier waits
// (topo::WaitableWord): seconds per hand-over.
double thread_sync(double seconds) {
  topo::WaitableWord<std::uint32_t> word;
  word.reset(0);
  std::atomic<bool> stop{false};
  std::uint64_t handovers = 0;
  std::thread partner([&] {
    std::uint32_t seen = 0;
    while (true) {
      seen = word.wait_for_change(seen);  // odd: my turn
      if (stop.load()) return;
      seen = word.add_and_wake(1) + 1;
    }
  });
  const auto start = Clock::now();
  std::uint32_t value = 0;
  double elapsed = 0;
  do {
    value = word.add_and_wake(1) + 1;
    value = word.wait_for_change(value);
    handovers += 2;
    elapsed = seconds_since(start);
  } while (elapsed < seconds);
  stop.store(true);
  word.add_and_wake(1);
  partner.join();
  return elapsed / static_cast<double>(handovers);
}

}  // namespace

MachineSpeed probe_machine(int threads, std::uint64_t llc_bytes, std::uint64_t memory_limit_bytes) {
  threads = std::max(1, threads);
  MachineSpeed s;
  std::uint64_t bytes = std::clamp<std::uint64_t>(2 * llc_bytes, kMinArrayBytes, kMaxArrayBytes);
  if (memory_limit_bytes > 0) bytes = std::max<std::uint64_t>(MiB, std::min(bytes, memory_limit_bytes / 2));
  s.timer_resolution_seconds = timer_resolution();
  const CopyRates one = copy_rates(1, bytes, kBandwidthProbeSeconds);
  // All threads: at least 4 MiB each (beyond a core's share of any cache).
  std::uint64_t all_bytes = std::max<std::uint64_t>(bytes, static_cast<std::uint64_t>(threads) * 4 * MiB);
  if (memory_limit_bytes > 0) all_bytes = std::max(bytes, std::min(all_bytes, memory_limit_bytes / 2));
  const CopyRates all = threads == 1 ? one : copy_rates(threads, all_bytes, kBandwidthProbeSeconds);
  s.thread_memory_Bps = one.copy_Bps;
  s.memory_Bps = std::max(all.copy_Bps, one.copy_Bps);
  s.first_touch_Bps = std::max(all.first_touch_Bps, one.first_touch_Bps);
  s.random_access_seconds = dependent_load(bytes, kChaseProbeSeconds);
  s.thread_sync_seconds = threads == 1 ? s.timer_resolution_seconds : thread_sync(kSyncProbeSeconds);
  s.probed = true;
  return s;
}

double probe_rank_barrier(MPI_Comm comm) {
  constexpr int kBarriers = 20;
  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  for (int k = 0; k < kBarriers; ++k) MPI_Barrier(comm);
  double mean = (MPI_Wtime() - start) / kBarriers;
  // Every rank the same figure: the slowest rank's.
  MPI_Allreduce(MPI_IN_PLACE, &mean, 1, MPI_DOUBLE, MPI_MAX, comm);
  return mean;
}

void probe_rank_exchange(MPI_Comm comm, MachineSpeed& speed) {
  // Runs as long as b_eff's shortest samples, enough of them to span many
  // of a loaded scheduler's time slices (60 ms when nothing else runs).
  constexpr int kRuns = 60;
  constexpr double kRunSeconds = 1e-3;
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  std::uint64_t send = 0, received[2] = {0, 0};
  auto exchanges = [&](long count) {
    for (long k = 0; k < count; ++k) {
      MPI_Sendrecv(&send, 1, MPI_UINT64_T, right, 7, &received[0], 1, MPI_UINT64_T, left, 7, comm, MPI_STATUS_IGNORE);
      MPI_Sendrecv(&send, 1, MPI_UINT64_T, left, 8, &received[1], 1, MPI_UINT64_T, right, 8, comm, MPI_STATUS_IGNORE);
    }
  };
  // How many exchanges make a run: from 100 timed on rank 0's clock, shared.
  exchanges(10);
  MPI_Barrier(comm);
  double start = MPI_Wtime();
  exchanges(100);
  double first = (MPI_Wtime() - start) / 100;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_DOUBLE, MPI_MAX, comm);
  const long per_run = std::clamp(static_cast<long>(kRunSeconds / std::max(first, 1e-9)), 1L, 1000000L);
  std::vector<double> runs(kRuns);
  for (double& t : runs) {
    start = MPI_Wtime();
    exchanges(per_run);
    t = MPI_Wtime() - start;
  }
  MPI_Allreduce(MPI_IN_PLACE, runs.data(), kRuns, MPI_DOUBLE, MPI_MAX, comm);
  const double fastest = *std::min_element(runs.begin(), runs.end());
  double mean = 0;
  for (double t : runs) mean += t / kRuns;
  speed.rank_exchange_seconds = fastest / static_cast<double>(per_run);
  speed.exchange_stretch = std::max(1.0, mean / std::max(fastest, 1e-12));
}

}  // namespace bws::run
