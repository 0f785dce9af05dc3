#include "load/LoadTeamJobs.hpp"

#include <chrono>
#include <numeric>

#include "topology/Team.hpp"

namespace bws::load {
namespace {

constexpr std::size_t kGranule = 8;  // doubles in a 64-byte cache line

// One pass of the kernel over a thread's share; load returns its sum.
double run_kernel(LoadKernel kernel, double* a, std::size_t begin, std::size_t end) {
  switch (kernel) {
    case LoadKernel::Load: return load_sum(a, begin, end);
    case LoadKernel::Store: store(a, begin, end, kStoreValue); break;
    case LoadKernel::Update: update(a, begin, end, kUpdateScale); break;
  }
  return 0;
}

}  // namespace

void initialize_on_team(topo::Team& team, double* a, std::size_t n) {
  team.run([&](topo::ThreadContext& thread) {
    const auto [begin, end] = thread.share(n, kGranule);
    initialize(a, begin, end);
  });
}

double sum_on_team(topo::Team& team, const double* a, std::size_t n) {
  std::vector<double> partial(static_cast<std::size_t>(team.size()), 0.0);
  team.run([&](topo::ThreadContext& thread) {
    const auto [begin, end] = thread.share(n, kGranule);
    partial[static_cast<std::size_t>(thread.index())] = load_sum(a, begin, end);
  });
  return std::accumulate(partial.begin(), partial.end(), 0.0);
}

KernelMeasurement measure_on_team(topo::Team& team, RunContext& context, double* a, std::size_t n,
                                  LoadKernel kernel, int passes, const std::function<void(int)>& after_pass) {
  using Clock = std::chrono::steady_clock;
  KernelMeasurement m;
  m.kernel = kernel;
  const double expected = expected_checksum(kernel, n, 0);
  bool wrong_sum_seen = false;
  std::vector<double> partial(static_cast<std::size_t>(team.size()), 0.0);
  for (int k = 0; k < passes; ++k) {
    Clock::time_point start, stop;
    context.node_sync.barrier();
    team.run([&](topo::ThreadContext& thread) {
      const auto [begin, end] = thread.share(n, kGranule);
      thread.barrier();
      if (thread.index() == 0) start = Clock::now();
      const double sum = run_kernel(kernel, a, begin, end);
      thread.barrier();
      if (thread.index() == 0) stop = Clock::now();
      partial[static_cast<std::size_t>(thread.index())] = sum;
    });
    m.seconds.push_back(std::chrono::duration<double>(stop - start).count());
    if (kernel == LoadKernel::Load && !wrong_sum_seen) {
      m.checksum = std::accumulate(partial.begin(), partial.end(), 0.0);
      wrong_sum_seen = m.checksum != expected;
    }
    if (after_pass) after_pass(k);
  }
  if (kernel != LoadKernel::Load) m.checksum = sum_on_team(team, a, n);
  return m;
}

}  // namespace bws::load
