// BS1-BS7 on the rank's OpenCL device: planned against the device
// (plan_bs_on_device), the device and the runner's buffers opened in
// prepare(), every call through cl/OclBsRunner.cpp.
#include "ocl/OclBsBackend.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

#include "ocl/OclBsKernels.hpp"
#include "ocl/OclDeviceTable.hpp"
#include "ocl/OclPlan.hpp"
#include "ocl/OclRateCeiling.hpp"
#include "ocl/OclRuntime.hpp"

namespace bws::ocl {
namespace {

// Empty calls timed for the device's T0 (per call shape, bs_call_shape).
constexpr int kEmptyCallReps = 200;

class OclBsRun final : public bs::BsDeviceRun {
 public:
  OclBsRun(OclRankDevice device, bs::BsParams params) : device_(std::move(device)), params_(std::move(params)) {}

  const bs::BsParams& params() const override { return params_; }
  std::string describe() const override { return "ocl: " + device_.choice.device.label() + "; BS " + bs::describe_bs(params_); }
  // host copies of one test's inputs and outputs, and the largest mesh built on the host
  std::uint64_t memory_bytes() const override {
    return 8 * largest_vector_entries(params_) * sizeof(double) + params_.mesh_buffer_bytes + params_.mesh_host_bytes;
  }
  bs::BsDeviceInfo info(const topo::Team&) const override {
    const OclDeviceInfo& d = device_.choice.device;
    return {kBackendOcl, d.compute_units, device_rate_ceiling_Bps(d)};
  }
  void prepare(topo::Team&) override {
    int arrays = 0;
    for (bs::BsTest t : params_.tests) arrays = std::max(arrays, bs::bs_spec(t).arrays);
    runner_ = make_ocl_bs_runner(open_ocl_device(device_.choice.device), largest_vector_entries(params_), arrays);
  }
  void release() override {
    runner_.reset();
    T0_by_shape_.clear();
  }
  // T0 is that of an empty call of the test's own shape: a BS3-BS5 call is
  // two launches and a read, not one launch (OclBsKernels.hpp); measured
  // once per shape.
  double empty_call_seconds(topo::Team&, RunContext&, bs::BsTest test) override {
    const BsCallShape shape = bs_call_shape(test);
    const std::pair<int, bool> key{shape.launches, shape.reads_result};
    auto it = T0_by_shape_.find(key);
    if (it == T0_by_shape_.end()) it = T0_by_shape_.emplace(key, live().empty_call_seconds(test, kEmptyCallReps)).first;
    return it->second;
  }
  bs::BsPoint vector_point(topo::Team&, RunContext& context, bs::BsTest test, std::uint64_t entries, int reps) override {
    return live().vector_point(test, entries, reps, context.node_sync);
  }
  void place_mesh(topo::Team&, const bs::HexMesh& mesh, const bs::GatherCsr& csr) override {
    mesh_ = &mesh;
    csr_ = &csr;
  }
  bs::BsPoint mesh_point(topo::Team&, RunContext&, bs::BsTest test, int reps) override {
    if (!mesh_) throw std::logic_error("ocl bs: mesh_point() before place_mesh()");
    return live().mesh_point(test, *mesh_, *csr_, reps);
  }
  std::vector<Table> device_tables(const std::string& benchmark) const override {
    return ocl_devices_tables(device_, benchmark);
  }

 private:
  OclBsRunner& live() {
    if (!runner_) throw std::logic_error("ocl bs: run() called before prepare()");
    return *runner_;
  }

  OclRankDevice device_;
  bs::BsParams params_;
  std::unique_ptr<OclBsRunner> runner_;
  std::map<std::pair<int, bool>, double> T0_by_shape_;
  const bs::HexMesh* mesh_ = nullptr;  // the driver's, for the points of one mesh
  const bs::GatherCsr* csr_ = nullptr;
};

class OclBsBackend final : public bs::BsBackend {
 public:
  std::unique_ptr<bs::BsDeviceRun> plan(const Config& config, const bs::BsOptions& options,
                                        const NodeContext& node) const override {
    OclRankDevice device = choose_rank_device(config, node, options.flag(&bs::BsOptions::backends) + " ocl");
    bs::BsParams params = plan_bs_on_device(options, device.choice.device, device.choice.ranks_on_device, node.quick);
    return std::make_unique<OclBsRun>(std::move(device), std::move(params));
  }
};

}  // namespace

std::shared_ptr<const bs::BsBackend> ocl_bs_backend() { return std::make_shared<OclBsBackend>(); }

}  // namespace bws::ocl
