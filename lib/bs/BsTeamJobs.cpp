#include "bs/BsTeamJobs.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "bs/BsKernels.hpp"
#include "bs/BsPlan.hpp"
#include "topology/Team.hpp"
#include "topology/TimedWindow.hpp"

namespace bws::bs {
namespace {

// One thread's partial sum on its own cache line: no false sharing.
struct alignas(64) PaddedSum {
  double value = 0;
};

int arrays_of(BsTest t) { return bs_spec(t).arrays; }

// The test's loop on [b, e); returns the partial reduction (0 for none).
double vector_kernel(BsTest test, const BsVectorArrays& x, std::size_t b, std::size_t e) {
  switch (test) {
    case BsTest::Copy: bs_copy(x.a[0], x.a[1], b, e); return 0;
    case BsTest::Axpy: bs_axpy(kAxpyA, x.a[0], kAxpyB, x.a[1], b, e); return 0;
    case BsTest::Norm: return bs_norm_partial(x.a[0], b, e);
    case BsTest::Dot: return bs_dot_partial(x.a[0], x.a[1], b, e);
    case BsTest::CgUpdate: return bs_cg_update_partial(kCgAlpha, x.a[0], x.a[1], x.a[2], x.a[3], b, e);
    default: return 0;
  }
}

bool reduces(BsTest t) { return t == BsTest::Norm || t == BsTest::Dot || t == BsTest::CgUpdate; }

double rel_error(double got, double expected) {
  if (got == expected) return 0;
  if (!std::isfinite(got)) return std::numeric_limits<double>::infinity();
  return std::abs(got - expected) / std::max(std::abs(expected), 1e-300);
}

std::string fmt(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// Time `job` (run by every thread on its share) `reps` times after a warm-up:
// each run one timed window (topology/TimedWindow.hpp), thread 0 combining.
template <class Job, class Combine>
std::vector<double> time_runs(topo::Team& team, RunContext& context, int reps, Job job, Combine combine) {
  std::vector<double> seconds(static_cast<std::size_t>(reps));
  context.node_sync.barrier();
  team.run([&](topo::ThreadContext& thread) {
    for (int k = 0; k <= reps; ++k) {
      const double s = topo::timed_window(thread, job, combine);
      if (thread.index() == 0 && k > 0) seconds[static_cast<std::size_t>(k - 1)] = s;
    }
  });
  return seconds;
}

}  // namespace

double bs_measure_empty_call_seconds(topo::Team& team, RunContext& context, int reps) {
  const std::vector<double> seconds = time_runs(team, context, reps, [](topo::ThreadContext&) {}, [] {});
  return *std::min_element(seconds.begin(), seconds.end());
}

void bs_init_vectors(topo::Team& team, BsTest test, const BsVectorArrays& x, std::uint64_t n) {
  const int arrays = arrays_of(test);
  team.run([&](topo::ThreadContext& thread) {
    const auto [b, e] = thread.share(n, kGranule);
    for (int k = 0; k < arrays; ++k)
      for (std::size_t i = b; i < e; ++i) x.a[k][i] = bs_input(k, i);
  });
}

double bs_vector_once(topo::Team& team, BsTest test, const BsVectorArrays& x, std::uint64_t n) {
  std::vector<PaddedSum> partial(static_cast<std::size_t>(team.size()));
  team.run([&](topo::ThreadContext& thread) {
    const auto [b, e] = thread.share(n, kGranule);
    partial[static_cast<std::size_t>(thread.index())].value = vector_kernel(test, x, b, e);
  });
  double sum = 0;
  for (const PaddedSum& p : partial) sum += p.value;
  return sum;
}

BsValidation bs_validate_vectors(BsTest test, const BsVectorArrays& x, std::uint64_t n, double scalar) {
  BsValidation v;
  v.limit = 2 * std::numeric_limits<double>::epsilon();
  std::string first_bad;
  auto check_array = [&](const double* a, const char* name, auto expected_of) {
    for (std::uint64_t i = 0; i < n; ++i) {
      const double expected = expected_of(i), err = rel_error(a[i], expected);
      if (err > v.error) v.error = err;
      if (err > v.limit && first_bad.empty())
        first_bad = std::string(name) + "[" + std::to_string(i) + "] = " + fmt(a[i]) + " expected " + fmt(expected);
    }
  };
  switch (test) {
    case BsTest::Copy: check_array(x.a[1], "y", [](std::uint64_t i) { return bs_input(0, i); }); break;
    case BsTest::Axpy:
      check_array(x.a[1], "y", [](std::uint64_t i) { return kAxpyA * bs_input(0, i) + kAxpyB * bs_input(1, i); });
      break;
    case BsTest::CgUpdate:
      check_array(x.a[0], "x", [](std::uint64_t i) { return bs_input(0, i) + kCgAlpha * bs_input(1, i); });
      check_array(x.a[2], "r", [](std::uint64_t i) { return bs_input(2, i) - kCgAlpha * bs_input(3, i); });
      break;
    default: break;
  }
  if (reduces(test)) {
    auto term = [&](std::uint64_t i) {
      if (test == BsTest::Norm) return bs_input(0, i) * bs_input(0, i);
      if (test == BsTest::Dot) return bs_input(0, i) * bs_input(1, i);
      const double r = bs_input(2, i) - kCgAlpha * bs_input(3, i);
      return r * r;
    };
    const double expected = kahan_sum(n, term);
    const double abs_sum = kahan_sum(n, [&](std::uint64_t i) { return std::abs(term(i)); });
    const double tolerance = 2.0 * static_cast<double>(n) * std::numeric_limits<double>::epsilon() * abs_sum;
    const double err = std::abs(scalar - expected);
    // Reported relative to the sum, against the tolerance relative to it.
    const double scale = std::max(std::abs(expected), 1e-300);
    v.error = std::max(v.error, std::isfinite(scalar) ? err / scale : std::numeric_limits<double>::infinity());
    v.limit = std::max(v.limit, tolerance / scale);
    if (!(err <= tolerance) && first_bad.empty())
      first_bad = "sum " + fmt(scalar) + " expected " + fmt(expected) + " (compensated), tolerance " + fmt(tolerance);
  }
  v.passed = first_bad.empty();
  v.what = first_bad;
  return v;
}

BsPoint bs_measure_vector_point(topo::Team& team, RunContext& context, BsTest test, const BsVectorArrays& x,
                                std::uint64_t n, int reps) {
  BsPoint p;
  p.entries = n;
  p.bytes = vector_test_bytes(test, n);
  bs_init_vectors(team, test, x, n);
  std::vector<PaddedSum> partial(static_cast<std::size_t>(team.size()));
  volatile double sink = 0;
  const bool reduction = reduces(test);
  p.seconds = time_runs(
      team, context, reps,
      [&](topo::ThreadContext& thread) {
        const auto [b, e] = thread.share(n, kGranule);
        partial[static_cast<std::size_t>(thread.index())].value = vector_kernel(test, x, b, e);
      },
      [&] {
        if (!reduction) return;
        double sum = 0;
        for (const PaddedSum& s : partial) sum += s.value;
        sink = sum;
      });
  (void)sink;
  bs_init_vectors(team, test, x, n);
  const double scalar = bs_vector_once(team, test, x, n);
  p.validation = bs_validate_vectors(test, x, n, scalar);
  return p;
}

std::vector<std::uint64_t> balance_blocks(const GatherCsr& csr, int threads) {
  const std::uint64_t blocks = csr.blocks();
  const std::uint64_t nonzeros = csr.nonzeros();
  std::vector<std::uint64_t> tb(static_cast<std::size_t>(threads) + 1, blocks);
  tb[0] = 0;
  std::uint64_t b = 0;
  for (int t = 1; t < threads; ++t) {
    const std::uint64_t target = nonzeros * static_cast<std::uint64_t>(t) / static_cast<std::uint64_t>(threads);
    while (b < blocks && static_cast<std::uint64_t>(csr.row_starts[static_cast<std::size_t>(csr.block_starts[b])]) < target) ++b;
    tb[static_cast<std::size_t>(t)] = b;
  }
  return tb;
}

BsMeshOnTeam bs_place_mesh(topo::Team& team, const HexMesh& mesh, const GatherCsr& csr, unsigned char* buffer) {
  BsMeshOnTeam m;
  m.local_nodes = mesh.local_nodes;
  m.global_nodes = mesh.global_nodes;
  m.unmasked_local_nodes = mesh.unmasked_local_nodes;
  m.blocks = csr.blocks();
  const BsMeshLayout l = mesh_layout(m.global_nodes, m.local_nodes);
  m.row_starts = reinterpret_cast<std::int32_t*>(buffer + l.row_starts);
  m.local_ids = reinterpret_cast<std::int32_t*>(buffer + l.local_ids);
  m.scatter_ids = reinterpret_cast<std::int32_t*>(buffer + l.scatter_ids);
  m.x_L = reinterpret_cast<double*>(buffer + l.x_L);
  m.x_G = reinterpret_cast<double*>(buffer + l.x_G);
  m.block_rows = csr.block_starts;
  m.block_starts = m.block_rows.data();
  m.thread_blocks = balance_blocks(csr, team.size());
  m.multiplicities = multiplicity_histogram(csr);
  const std::uint64_t rows = csr.row_starts.size(), nnz = csr.local_ids.size(), nt = m.local_nodes;
  team.run([&](topo::ThreadContext& thread) {
    auto copy = [&](auto* dst, const auto* src, std::uint64_t count) {
      const auto [b, e] = thread.share(count, 16);
      if (e > b) std::memcpy(dst + b, src + b, (e - b) * sizeof(*src));
    };
    copy(m.row_starts, csr.row_starts.data(), rows);
    copy(m.local_ids, csr.local_ids.data(), nnz);
    copy(m.scatter_ids, mesh.local_to_global.data(), nt);
    const auto [b, e] = thread.share(nt, kGranule);
    for (std::size_t i = b; i < e; ++i) m.x_L[i] = bs_local_input(i);
    const auto [gb, ge] = thread.share(m.global_nodes, kGranule);
    for (std::size_t g = gb; g < ge; ++g) m.x_G[g] = 0;
  });
  return m;
}

namespace {
void gather_share(const BsMeshOnTeam& m, int thread) {
  const auto t = static_cast<std::size_t>(thread);
  const std::uint64_t b0 = m.thread_blocks[t], b1 = m.thread_blocks[t + 1];
  if (b1 > b0)
    bs_gather_rows(m.row_starts, m.local_ids, m.x_L, m.x_G, static_cast<std::size_t>(m.block_starts[b0]),
                   static_cast<std::size_t>(m.block_starts[b1]));
}
}  // namespace

void bs_gather_once(topo::Team& team, const BsMeshOnTeam& m) {
  team.run([&](topo::ThreadContext& thread) { gather_share(m, thread.index()); });
}

void bs_scatter_once(topo::Team& team, const BsMeshOnTeam& m) {
  team.run([&](topo::ThreadContext& thread) {
    const auto [b, e] = thread.share(m.local_nodes, kGranule);
    bs_scatter(m.scatter_ids, m.x_G, m.x_L, b, e);
  });
}

BsValidation bs_check_gather_of_ones(const std::int32_t* row_starts, const double* x_G, std::uint64_t global_nodes,
                                     const std::vector<std::uint64_t>& multiplicities) {
  BsValidation v;
  v.limit = 0;
  std::vector<std::uint64_t> histogram(multiplicities.size() + 1, 0);
  for (std::uint64_t g = 0; g < global_nodes; ++g) {
    const double expected = row_starts[g + 1] - row_starts[g];
    const double err = std::abs(x_G[g] - expected);
    if (!(err == 0)) {
      v.error = std::max(v.error, std::isfinite(err) ? err : std::numeric_limits<double>::infinity());
      if (v.what.empty())
        v.what = "gather of ones: x_G[" + std::to_string(g) + "] = " + fmt(x_G[g]) + " expected multiplicity " +
                 fmt(expected);
    } else if (static_cast<std::size_t>(expected) < histogram.size()) {
      ++histogram[static_cast<std::size_t>(expected)];
    }
  }
  histogram.resize(multiplicities.size());
  if (v.what.empty() && histogram != multiplicities) {
    v.error = 1;
    v.what = "gather of ones: the histogram of x_G differs from the mesh's multiplicity histogram";
  }
  v.passed = v.what.empty();
  return v;
}

BsValidation bs_check_scatter_after_gather(const std::int32_t* scatter_ids, const std::int32_t* row_starts,
                                           const double* x_L, std::uint64_t local_nodes) {
  BsValidation v;
  v.limit = 0;
  for (std::uint64_t l = 0; l < local_nodes; ++l) {
    const std::int32_t g = scatter_ids[l];
    const double expected = g < 0 ? -1.0 : static_cast<double>(row_starts[g + 1] - row_starts[g]);
    const double err = std::abs(x_L[l] - expected);
    if (!(err == 0)) {
      v.error = std::max(v.error, std::isfinite(err) ? err : std::numeric_limits<double>::infinity());
      if (v.what.empty())
        v.what = "scatter after gather: x_L[" + std::to_string(l) + "] = " + fmt(x_L[l]) + " expected " +
                 fmt(expected) + (g < 0 ? " (masked: untouched)" : " (its global node's multiplicity)");
    }
  }
  v.passed = v.what.empty();
  return v;
}

BsValidation bs_validate_gather(topo::Team& team, const BsMeshOnTeam& m) {
  team.run([&](topo::ThreadContext& thread) {
    const auto [b, e] = thread.share(m.local_nodes, kGranule);
    for (std::size_t i = b; i < e; ++i) m.x_L[i] = 1.0;
    const auto [gb, ge] = thread.share(m.global_nodes, kGranule);
    for (std::size_t g = gb; g < ge; ++g) m.x_G[g] = -1.0;
  });
  bs_gather_once(team, m);
  return bs_check_gather_of_ones(m.row_starts, m.x_G, m.global_nodes, m.multiplicities);
}

BsValidation bs_validate_scatter(topo::Team& team, const BsMeshOnTeam& m) {
  BsValidation v = bs_validate_gather(team, m);  // x_G = multiplicity
  if (!v.passed) {
    v.what = "scatter after " + v.what;
    return v;
  }
  team.run([&](topo::ThreadContext& thread) {
    const auto [b, e] = thread.share(m.local_nodes, kGranule);
    for (std::size_t i = b; i < e; ++i) m.x_L[i] = -1.0;
  });
  bs_scatter_once(team, m);
  return bs_check_scatter_after_gather(m.scatter_ids, m.row_starts, m.x_L, m.local_nodes);
}

BsPoint bs_measure_mesh_point(topo::Team& team, RunContext& context, BsTest test, const BsMeshOnTeam& m, int reps) {
  BsPoint p;
  p.entries = m.local_nodes;
  p.global_nodes = m.global_nodes;
  p.blocks = m.blocks;
  const MeshNodeCounts nodes{m.global_nodes, m.local_nodes, m.unmasked_local_nodes};
  p.bytes = test == BsTest::Gather ? gather_bytes(nodes) : scatter_bytes(nodes);
  team.run([&](topo::ThreadContext& thread) {
    const auto [b, e] = thread.share(m.local_nodes, kGranule);
    for (std::size_t i = b; i < e; ++i) m.x_L[i] = bs_local_input(i);
  });
  if (test == BsTest::Gather) {
    p.seconds = time_runs(team, context, reps, [&](topo::ThreadContext& t) { gather_share(m, t.index()); }, [] {});
    p.validation = bs_validate_gather(team, m);
  } else {
    bs_gather_once(team, m);  // x_G holds sums of x_L
    p.seconds = time_runs(
        team, context, reps,
        [&](topo::ThreadContext& t) {
          const auto [b, e] = t.share(m.local_nodes, kGranule);
          bs_scatter(m.scatter_ids, m.x_G, m.x_L, b, e);
        },
        [] {});
    p.validation = bs_validate_scatter(team, m);
  }
  return p;
}

}  // namespace bws::bs
