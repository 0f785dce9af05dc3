#include "roofline/RooflineTeamJobs.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "roofline/Gemm.hpp"
#include "stream/StreamKernelTable.hpp"
#include "stream/StreamKernels.hpp"
#include "stream/StreamTeamJobs.hpp"
#include "topology/Team.hpp"
#include "topology/TimedWindow.hpp"

namespace bws::roofline {
namespace {

using topo::timed_team_run;

// The three matrices of thread t.
struct ThreadMatrices {
  unsigned char *a, *b, *c;
};
ThreadMatrices matrices_of(const RooflineParams& p, unsigned char* buffer, int thread) {
  unsigned char* base = buffer + static_cast<std::uint64_t>(thread) * p.gemm_thread_stride_bytes;
  return {base, base + p.gemm_matrix_stride_bytes, base + 2 * p.gemm_matrix_stride_bytes};
}

stream::StreamArrays<double> triad_arrays(const RooflineParams& p, unsigned char* buffer) {
  return stream::arrays_in<double>(buffer, p.triad_layout);
}

constexpr double kTriadB = 2.0, kTriadC = 1.0;
constexpr double kTriadA = kTriadB + stream::kStreamScalar * kTriadC;  // 5

}  // namespace

RooflineMeasurement measure_fma(topo::Team& team, RunContext& context, VectorIsa isa, StreamType type,
                                double min_time_seconds, int reps) {
  std::vector<double> deviation(static_cast<std::size_t>(team.size()), 0.0);
  auto run = [&](std::uint64_t iterations) {
    return timed_team_run(team, [&](topo::ThreadContext& thread) {
      deviation[static_cast<std::size_t>(thread.index())] = run_fma_kernel(isa, type, iterations);
    });
  };
  constexpr std::uint64_t kMaxIterations = UINT64_C(1) << 40;
  std::uint64_t iterations = kFmaMinIterations;
  for (double t = run(iterations); t < min_time_seconds && iterations < kMaxIterations; t = run(iterations)) {
    // Aim 10 % past the target; a tiny first time (timer noise) grows 16x at most per step.
    const double scale = t > 0 ? std::clamp(1.1 * min_time_seconds / t, 1.1, 16.0) : 16.0;
    iterations = static_cast<std::uint64_t>(std::ceil(static_cast<double>(iterations) * scale));
  }

  RooflineMeasurement m;
  m.kernel = RooflineKernel::Fma;
  m.type = type;
  m.implementation = std::string(isa_name(isa));
  m.iterations = iterations;
  // threads x iterations x accumulators x lanes x (multiply + add)
  m.flops = static_cast<std::uint64_t>(team.size()) * iterations * fma_flops_per_iteration(isa, type);
  double worst = 0;
  for (int r = 0; r < reps; ++r) {
    context.node_sync.barrier();
    m.seconds.push_back(run(iterations));
    for (double d : deviation) worst = std::isnan(d) ? HUGE_VAL : std::max(worst, d);
  }
  m.wrong = worst;
  m.wrong_allowed = kFmaTolerance;
  m.wrong_unit = "";  // a relative distance
  return m;
}

void first_touch_gemm(topo::Team& team, const RooflineParams& p, unsigned char* buffer) {
  team.run([&](topo::ThreadContext& thread) {
    unsigned char* base = buffer + static_cast<std::uint64_t>(thread.index()) * p.gemm_thread_stride_bytes;
    std::memset(base, 0, p.gemm_thread_stride_bytes);
  });
}

RooflineMeasurement measure_gemm(topo::Team& team, RunContext& context, const RooflineParams& p,
                                 unsigned char* buffer, StreamType type) {
  const std::size_t n = p.gemm_n;
  blas_use_calling_thread_only();
  team.run([&](topo::ThreadContext& thread) {
    const ThreadMatrices m = matrices_of(p, buffer, thread.index());
    fill_gemm_inputs(type, n, m.a, m.b);
    gemm(type, n, m.a, m.b, m.c);  // warm-up: BLAS buffers, caches, pages
  });
  RooflineMeasurement m;
  m.kernel = RooflineKernel::Gemm;
  m.type = type;
  m.implementation = blas_description();
  m.matrix_n = n;
  m.flops = static_cast<std::uint64_t>(team.size()) * gemm_flops(n);  // every thread one n^3 multiply
  for (int r = 0; r < p.reps; ++r) {
    context.node_sync.barrier();
    m.seconds.push_back(timed_team_run(team, [&](topo::ThreadContext& thread) {
      const ThreadMatrices t = matrices_of(p, buffer, thread.index());
      gemm(type, n, t.a, t.b, t.c);
    }));
  }
  std::vector<int> wrong(static_cast<std::size_t>(team.size()), 0);
  team.run([&](topo::ThreadContext& thread) {
    wrong[static_cast<std::size_t>(thread.index())] =
        wrong_gemm_entries(type, n, matrices_of(p, buffer, thread.index()).c);
  });
  for (int w : wrong) m.wrong += w;
  m.wrong_allowed = 0;
  m.wrong_unit = "entries";
  return m;
}

void first_touch_triad(topo::Team& team, const RooflineParams& p, unsigned char* buffer) {
  const stream::StreamArrays<double> x = triad_arrays(p, buffer);
  const std::size_t n = p.triad_elements;
  team.run([&](topo::ThreadContext& thread) {
    const auto [begin, end] = thread.share(n, stream::share_granule<double>());
    for (std::size_t j = begin; j < end; ++j) {
      x.a[j] = 0;
      x.b[j] = kTriadB;
      x.c[j] = kTriadC;
    }
  });
}

RooflineMeasurement measure_triad(topo::Team& team, RunContext& context, const RooflineParams& p,
                                  unsigned char* buffer) {
  const stream::StreamArrays<double> x = triad_arrays(p, buffer);
  const std::size_t n = p.triad_elements;
  auto triad = [&](topo::ThreadContext& thread) {
    const auto [begin, end] = thread.share(n, stream::share_granule<double>());
    stream::run_stream_kernel<double>(stream::StreamKernel::Triad, p.triad_stores, x, begin, end);
  };
  timed_team_run(team, triad);  // warm-up
  RooflineMeasurement m;
  m.kernel = RooflineKernel::Triad;
  m.type = StreamType::Double;
  m.implementation = std::string(stream::store_name(p.triad_stores)) + " stores";
  m.elements = n;
  m.bytes = stream::kernel_bytes(stream::StreamKernel::Triad, n, sizeof(double));  // reads b, c; writes a
  for (int r = 0; r < p.reps; ++r) {
    context.node_sync.barrier();
    m.seconds.push_back(timed_team_run(team, triad));
  }
  std::vector<std::uint64_t> wrong(static_cast<std::size_t>(team.size()), 0);
  team.run([&](topo::ThreadContext& thread) {
    const auto [begin, end] = thread.share(n, stream::share_granule<double>());
    std::uint64_t w = 0;
    for (std::size_t j = begin; j < end; ++j) w += x.a[j] != kTriadA;
    wrong[static_cast<std::size_t>(thread.index())] = w;
  });
  for (std::uint64_t w : wrong) m.wrong += static_cast<double>(w);
  m.wrong_allowed = 0;
  m.wrong_unit = "elements";
  return m;
}

}  // namespace bws::roofline
