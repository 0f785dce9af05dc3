#include "load/LoadTeamJobs.hpp"

#include <numeric>

#include "topology/Team.hpp"
#include "topology/TimedWindow.hpp"

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
  KernelMeasurement m;
  m.kernel = kernel;
  const double expected = expected_checksum(kernel, n, 0);
  bool wrong_sum_seen = false;
  std::vector<double> partial(static_cast<std::size_t>(team.size()), 0.0);
  for (int k = 0; k < passes; ++k) {
    context.node_sync.barrier();
    m.seconds.push_back(topo::timed_team_run(team, [&](topo::ThreadContext& thread) {
      const auto [begin, end] = thread.share(n, kGranule);
      partial[static_cast<std::size_t>(thread.index())] = run_kernel(kernel, a, begin, end);
    }));
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
