// BS1-BS7's CPU backend: NUMA buffers of the largest size, first-touched
// (zeroed) by the Team in prepare(), the kernels of BsTeamJobs on them.
#include <cstring>
#include <stdexcept>

#include "bs/BsDevice.hpp"
#include "bs/BsTeamJobs.hpp"
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

class CpuBsRun final : public BsDeviceRun {
 public:
  CpuBsRun(BsParams params, const NodeContext& node) : params_(std::move(params)), topology_(&node.topology) {}

  const BsParams& params() const override { return params_; }
  std::string describe() const override { return describe_bs(params_); }
  std::uint64_t memory_bytes() const override { return params_.memory_bytes(); }
  BsDeviceInfo info(const topo::Team& team) const override { return {kBackendCpu, team.size(), 0}; }

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
  void release() override {
    placed_ = BsMeshOnTeam();
    vectors_ = topo::NumaBuffer();
    mesh_ = topo::NumaBuffer();
  }

  // T0 on CPU threads is microseconds, one fork/join whatever the test; a
  // fit over DRAM-sized points cannot resolve it, so it is measured once.
  double empty_call_seconds(topo::Team& team, RunContext& context, BsTest) override {
    if (T0_seconds_ < 0) T0_seconds_ = bs_measure_empty_call_seconds(team, context, kEmptyCallReps);
    return T0_seconds_;
  }

  BsPoint vector_point(topo::Team& team, RunContext& context, BsTest test, std::uint64_t entries, int reps) override {
    if (params_.vector_buffer_bytes > 0 && vectors_.data() == nullptr)
      throw std::logic_error("bs: run() called before prepare()");
    const auto& points = params_.vector_points[static_cast<std::size_t>(test) - 1];
    const std::uint64_t stride = vector_array_stride(points.back().entries);
    BsVectorArrays arrays;
    auto* base = static_cast<unsigned char*>(vectors_.data());
    for (int k = 0; k < bs_spec(test).arrays; ++k)
      arrays.a[k] = reinterpret_cast<double*>(base + k * (stride + kArrayOffsetBytes));
    return bs_measure_vector_point(team, context, test, arrays, entries, reps);
  }

  void place_mesh(topo::Team& team, const HexMesh& mesh, const GatherCsr& csr) override {
    placed_ = bs_place_mesh(team, mesh, csr, static_cast<unsigned char*>(mesh_.data()));
  }
  // The ranks of a node meet once per degree (the driver), not per mesh:
  // the deduplicated K lists need not be equally long.
  BsPoint mesh_point(topo::Team& team, RunContext& context, BsTest test, int reps) override {
    NoNodeSync no_sync;
    RunContext mesh_context{context.progress, no_sync};
    return bs_measure_mesh_point(team, mesh_context, test, placed_, reps);
  }

 private:
  BsParams params_;
  const topo::Topology* topology_;
  topo::NumaBuffer vectors_, mesh_;
  BsMeshOnTeam placed_;
  double T0_seconds_ = -1;
};

class CpuBsBackend final : public BsBackend {
 public:
  std::unique_ptr<BsDeviceRun> plan(const Config& /*config*/, const BsOptions& options,
                                    const NodeContext& node) const override {
    return std::make_unique<CpuBsRun>(plan_bs(options, node), node);
  }
};

}  // namespace

std::shared_ptr<const BsBackend> cpu_bs_backend() { return std::make_shared<CpuBsBackend>(); }

}  // namespace bws::bs
