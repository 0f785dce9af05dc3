// The streaming kernels of lib/load, one row each (LoadCatalogEntry.hpp):
// adding a likwid-bench kernel is one row here, nothing else. Each byte
// term of a row names the array element it counts.
#include <array>
#include <numeric>
#include <vector>

#include "load/LoadCatalogEntry.hpp"
#include "topology/Team.hpp"
#include "topology/TimedWindow.hpp"

namespace bws::load {
namespace {

// Partial sums of a read-only loop: four 512-bit (or eight 256-bit)
// registers of independent adds, so the loop waits on memory, not on the
// add latency, and the compiler may vectorise it.
constexpr std::size_t kLanes = 32;

double lane_sum(const double* a, std::size_t begin, std::size_t end) {
  double lane[kLanes] = {};
  std::size_t i = begin;
  for (; i + kLanes <= end; i += kLanes)
    for (std::size_t j = 0; j < kLanes; ++j) lane[j] += a[i + j];
  double sum = 0;
  for (; i < end; ++i) sum += a[i];
  for (double s : lane) sum += s;
  return sum;
}

// store writes 3; update multiplies by -1 (a sign change: exact, and no
// compiler may fold it into nothing).
constexpr double kStoreValue = 3.0, kUpdateScale = -1.0;

const std::array kKernels = {
    StreamingKernel{.name = "load", .formula = "s += a[i]", .arrays = 1,
                    .reads = 1,   // a[i]
                    .writes = 0,  // nothing: the sum stays in registers
                    .loop = [](double* const* x, std::size_t b, std::size_t e) { return lane_sum(x[0], b, e); }},
    StreamingKernel{.name = "store", .formula = "a[i] = 3", .arrays = 1,
                    .reads = 0,   // nothing (the write-allocate read of a[i] is not counted)
                    .writes = 1,  // a[i]
                    .loop = [](double* const* x, std::size_t b, std::size_t e) {
                      for (std::size_t i = b; i < e; ++i) x[0][i] = kStoreValue;
                      return 0.0;
                    }},
    StreamingKernel{.name = "update", .formula = "a[i] = -1 * a[i]", .arrays = 1,
                    .reads = 1,   // a[i]
                    .writes = 1,  // a[i], written back
                    .loop = [](double* const* x, std::size_t b, std::size_t e) {
                      for (std::size_t i = b; i < e; ++i) x[0][i] = kUpdateScale * x[0][i];
                      return 0.0;
                    }},
    StreamingKernel{.name = "daxpy", .formula = "b[i] = b[i] + 0.5 * a[i]", .arrays = 2,
                    .reads = 1 + 1,  // a[i] + b[i]
                    .writes = 1,     // b[i]
                    .loop = [](double* const* x, std::size_t b, std::size_t e) {
                      for (std::size_t i = b; i < e; ++i) x[1][i] = x[1][i] + 0.5 * x[0][i];
                      return 0.0;
                    },
                    .by_default = false},  // run when --load.kernels names it (or all)
};

}  // namespace

std::span<const StreamingKernel> streaming_kernels() { return kKernels; }

// ---- How a row is counted, validated and run on the Team: the same for every row ----

std::uint64_t bytes_read(const StreamingKernel& k, std::uint64_t n) { return 8 * n * k.reads; }
std::uint64_t bytes_written(const StreamingKernel& k, std::uint64_t n) { return 8 * n * k.writes; }

double initial_value(int array, std::uint64_t i) { return 1.0 + array + 0.25 * static_cast<double>(i % 4); }

double expected_checksum(const StreamingKernel& k, std::uint64_t n, int passes) {
  std::array<std::array<double, 4>, kMaxArrays> period{};  // element i behaves as element i % 4
  std::array<double*, kMaxArrays> x{};
  for (int a = 0; a < k.arrays; ++a) {
    for (std::uint64_t i = 0; i < 4; ++i) period[a][i] = initial_value(a, i);
    x[a] = period[a].data();
  }
  const double whole = static_cast<double>(n / 4);
  const std::size_t rest = n % 4;
  if (k.reduces()) return whole * k.loop(x.data(), 0, 4) + k.loop(x.data(), 0, rest);
  for (int p = 0; p < passes; ++p) k.loop(x.data(), 0, 4);
  double sum = 0;
  for (int a = 0; a < k.arrays; ++a)
    for (std::size_t i = 0; i < 4; ++i) sum += (i < rest ? whole + 1 : whole) * period[a][i];
  return sum;
}

namespace {

constexpr std::size_t kGranule = 8;  // doubles in a 64-byte cache line: shares in whole lines

double sum_on_team(topo::Team& team, double* const* x, int arrays, std::size_t n) {
  std::vector<double> partial(static_cast<std::size_t>(team.size()), 0.0);
  team.run([&](topo::ThreadContext& thread) {
    const auto [begin, end] = thread.share(n, kGranule);
    for (int a = 0; a < arrays; ++a)
      partial[static_cast<std::size_t>(thread.index())] += std::accumulate(x[a] + begin, x[a] + end, 0.0);
  });
  return std::accumulate(partial.begin(), partial.end(), 0.0);  // in thread order
}

}  // namespace

void initialize_on_team(topo::Team& team, double* const* x, int arrays, std::size_t n) {
  team.run([&](topo::ThreadContext& thread) {
    const auto [begin, end] = thread.share(n, kGranule);
    for (int a = 0; a < arrays; ++a)
      for (std::size_t i = begin; i < end; ++i) x[a][i] = initial_value(a, i);
  });
}

KernelMeasurement measure_on_team(topo::Team& team, RunContext& context, double* const* x, std::size_t n,
                                  const StreamingKernel& kernel, int passes,
                                  const std::function<void(int)>& after_pass) {
  KernelMeasurement m;
  m.kernel = &kernel;
  const double expected = expected_checksum(kernel, n, 0);
  bool wrong_sum_seen = false;
  std::vector<double> partial(static_cast<std::size_t>(team.size()), 0.0);
  for (int k = 0; k < passes; ++k) {
    context.node_sync.barrier();  // the node's ranks stream together: their bytes add up
    m.seconds.push_back(topo::timed_team_run(team, [&](topo::ThreadContext& thread) {
      const auto [begin, end] = thread.share(n, kGranule);
      partial[static_cast<std::size_t>(thread.index())] = kernel.loop(x, begin, end);
    }));
    if (kernel.reduces() && !wrong_sum_seen) {
      m.checksum = std::accumulate(partial.begin(), partial.end(), 0.0);
      wrong_sum_seen = m.checksum != expected;
    }
    if (after_pass) after_pass(k);
  }
  if (!kernel.reduces()) m.checksum = sum_on_team(team, x, kernel.arrays, n);
  return m;
}

}  // namespace bws::load
