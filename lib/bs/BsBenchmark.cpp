// The BS NodeBenchmark: plan() resolves the options (BsPlan), prepare()
// allocates the NUMA buffers of the largest size and first-touches them on
// the Team, run() sweeps every test, validates every size and fits each
// series. The ranks of a node start every BS1-BS5 size together (node
// barrier per size, a fixed count on every rank); BS6/BS7 meet once per
// degree, since the deduplicated K lists need not be equally long.
#include "bs/BsBenchmark.hpp"

#include <cstring>
#include <stdexcept>

#include "bs/BsMesh.hpp"
#include "bs/BsPlan.hpp"
#include "bs/BsResults.hpp"
#include "bs/BsTeamJobs.hpp"
#include "core/ResultColumns.hpp"
#include "topology/NumaBuffer.hpp"
#include "topology/Team.hpp"

namespace bws::bs {
namespace {

// Empty calls timed for T0: enough that the best one is the fork/join cost
// without a preemption in it.
constexpr int kEmptyCallReps = 1000;

void zero_on_team(topo::Team& team, void* data, std::size_t bytes) {
  auto* p = static_cast<unsigned char*>(data);
  team.run([&](topo::ThreadContext& thread) {
    const auto [b, e] = thread.share(bytes / 4096, 1);  // whole pages
    const std::size_t end = thread.index() == thread.count() - 1 ? bytes : e * 4096;
    if (end > b * 4096) std::memset(p + b * 4096, 0, end - b * 4096);
  });
}

class BsPlannedRun final : public PlannedRun {
 public:
  BsPlannedRun(BsParams params, const NodeContext& node)
      : params_(std::move(params)), topology_(&node.topology), who_{node.rank, node.host, node.threads} {}

  std::string describe() const override { return describe_bs(params_); }
  std::uint64_t memory_bytes() const override { return params_.memory_bytes(); }

  void prepare(topo::Team& team) override {
    if (params_.vector_buffer_bytes > 0) {
      vectors_ = topo::NumaBuffer(*topology_, params_.vector_buffer_bytes);
      zero_on_team(team, vectors_.data(), vectors_.bytes());
    }
    if (params_.mesh_buffer_bytes > 0) {
      mesh_ = topo::NumaBuffer(*topology_, params_.mesh_buffer_bytes);
      zero_on_team(team, mesh_.data(), mesh_.bytes());
    }
  }

  std::vector<Table> run(topo::Team& team, RunContext& context) override {
    if (params_.vector_buffer_bytes > 0 && vectors_.data() == nullptr)
      throw std::logic_error("bs: run() called before prepare()");
    who_.threads = team.size();
    Table results = make_bs_results_table(), fits = make_bs_fits_table(), checks = make_checks_table();
    double total = 0, done = 0;
    for (BsTest t : params_.tests)
      if (!is_mesh_test(t)) total += params_.points;
    for (const BsDegreeSweep& s : params_.mesh_sweeps)
      total += static_cast<double>(s.points.size()) * (params_.runs(BsTest::Gather) + params_.runs(BsTest::Scatter));
    auto progress = [&](BsTest t) {
      done += 1;
      context.progress.report(std::string("bs ") + bs_spec(t).label, total > 0 ? done / total : 1.0);
    };

    // T0 on CPU threads is microseconds; a fit over DRAM-sized points
    // (milliseconds) cannot resolve it, so it is measured (BsFit.hpp).
    const double T0_seconds = bs_measure_empty_call_seconds(team, context, kEmptyCallReps);
    for (BsTest t : params_.tests) {
      if (is_mesh_test(t)) continue;
      const auto& points = params_.vector_points[static_cast<std::size_t>(t) - 1];
      const std::uint64_t stride = vector_array_stride(points.back().entries);
      BsVectorArrays arrays;
      auto* base = static_cast<unsigned char*>(vectors_.data());
      for (int k = 0; k < bs_spec(t).arrays; ++k)
        arrays.a[k] = reinterpret_cast<double*>(base + k * (stride + kArrayOffsetBytes));
      BsSeries series{t, 0, {}};
      for (std::size_t i = 0; i < points.size(); ++i) {
        BsPoint p = bs_measure_vector_point(team, context, t, arrays, points[i].entries, params_.reps);
        p.point = static_cast<int>(i);
        series.points.push_back(std::move(p));
        progress(t);
      }
      add_bs_series(results, fits, checks, who_, series, params_.fit_min_bytes, T0_seconds);
    }

    NoNodeSync no_sync;
    RunContext mesh_context{context.progress, no_sync};
    for (const BsDegreeSweep& sweep : params_.mesh_sweeps) {
      context.node_sync.barrier();
      BsSeries gather{BsTest::Gather, sweep.degree, {}}, scatter{BsTest::Scatter, sweep.degree, {}};
      for (std::size_t i = 0; i < sweep.points.size(); ++i) {
        const int k = sweep.points[i].elements_per_side;
        const HexMesh mesh = make_hex_mesh(k, sweep.degree, params_.mask_boundary);
        const GatherCsr csr = make_gather_csr(mesh);
        const BsMeshOnTeam placed = bs_place_mesh(team, mesh, csr, static_cast<unsigned char*>(mesh_.data()));
        for (BsTest t : {BsTest::Gather, BsTest::Scatter}) {
          if (!params_.runs(t)) continue;
          BsPoint p = bs_measure_mesh_point(team, mesh_context, t, placed, params_.reps);
          p.point = static_cast<int>(i);
          p.elements_per_side = k;
          (t == BsTest::Gather ? gather : scatter).points.push_back(std::move(p));
          progress(t);
        }
      }
      if (params_.runs(BsTest::Gather)) add_bs_series(results, fits, checks, who_, gather, params_.fit_min_bytes, T0_seconds);
      if (params_.runs(BsTest::Scatter)) add_bs_series(results, fits, checks, who_, scatter, params_.fit_min_bytes, T0_seconds);
    }
    return {std::move(results), std::move(fits), std::move(checks)};
  }

  void release() override {
    vectors_ = topo::NumaBuffer();
    mesh_ = topo::NumaBuffer();
  }

 private:
  BsParams params_;
  const topo::Topology* topology_;
  BsRankIdentity who_;
  topo::NumaBuffer vectors_, mesh_;
};

class BsBenchmark final : public NodeBenchmark {
 public:
  std::string name() const override { return "bs"; }
  std::string description() const override {
    return "BS1-BS7 streaming tests (Chalmers & Warburton): copy, axpy, norm, dot, fused CG update, gather, "
           "scatter; size sweeps fitted with T(B) = T0 + B/Wmax";
  }
  void add_options(boost::program_options::options_description& desc) const override { add_bs_options(desc); }
  std::unique_ptr<PlannedRun> plan(const Config& config, const NodeContext& node) const override {
    return std::make_unique<BsPlannedRun>(plan_bs(config, node), node);
  }
};

}  // namespace

std::unique_ptr<NodeBenchmark> make_bs_benchmark() { return std::make_unique<BsBenchmark>(); }

}  // namespace bws::bs
