#include "stream/StreamTeamJobs.hpp"

#include "topology/Team.hpp"
#include "topology/TimedWindow.hpp"

namespace bws::stream {

template <class T>
void initialize_on_team(topo::Team& team, const StreamArrays<T>& x, std::size_t n) {
  team.run([&](topo::ThreadContext& thread) {
    const auto [begin, end] = thread.share(n, share_granule<T>());
    for (std::size_t j = begin; j < end; ++j) {
      x.a[j] = T(1);
      x.b[j] = T(2);
      x.c[j] = T(0);
    }
    for (std::size_t j = begin; j < end; ++j) x.a[j] = T(2) * x.a[j];
  });
}

template <class T>
double time_kernel_on_team(topo::Team& team, NodeSync& node_sync, const StreamArrays<T>& x, std::size_t n,
                           StoreKind stores, StreamKernel kernel) {
  node_sync.barrier();
  return topo::timed_team_run(team, [&](topo::ThreadContext& thread) {
    const auto [begin, end] = thread.share(n, share_granule<T>());
    run_stream_kernel<T>(kernel, stores, x, begin, end);
  });
}

template <class T>
StreamValidation validate_on_team(topo::Team& team, const StreamArrays<T>& x, std::size_t n, int reps,
                                  const StreamValidationRule& rule) {
  const StreamExpected expected = stream_expected_values<T>(reps);
  std::vector<StreamErrorSums> partial(static_cast<std::size_t>(team.size()));
  team.run([&](topo::ThreadContext& thread) {
    const auto [begin, end] = thread.share(n, share_granule<T>());
    partial[static_cast<std::size_t>(thread.index())] = sum_stream_errors(x.a, x.b, x.c, begin, end, expected);
  });
  StreamErrorSums total;
  for (const StreamErrorSums& p : partial) total += p;  // in thread order: the same sum every run
  return judge_stream_run<T>(total, n, reps, rule);
}

#define BWS_STREAM_INSTANTIATE(T)                                                                                      \
  template void initialize_on_team<T>(topo::Team&, const StreamArrays<T>&, std::size_t);                               \
  template double time_kernel_on_team<T>(topo::Team&, NodeSync&, const StreamArrays<T>&, std::size_t, StoreKind,      \
                                         StreamKernel);                                                               \
  template StreamValidation validate_on_team<T>(topo::Team&, const StreamArrays<T>&, std::size_t, int,              \
                                                const StreamValidationRule&);

BWS_STREAM_INSTANTIATE(double)
BWS_STREAM_INSTANTIATE(float)
#undef BWS_STREAM_INSTANTIATE

}  // namespace bws::stream
