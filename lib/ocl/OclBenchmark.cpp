// The ocl NodeBenchmark: plan() chooses the device and plans STREAM and BS
// (OclPlan); prepare() opens the device and allocates STREAM's buffers;
// run() measures STREAM, releases it, then sweeps BS1-BS7 on the device
// with lib/bs's sizes, validation and fit.
#include "ocl/OclBenchmark.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <utility>
#include <stdexcept>

#include "bs/BsMesh.hpp"
#include "bs/BsResults.hpp"
#include "core/OptionText.hpp"
#include "core/ResultColumns.hpp"
#include "ocl/OclBsKernels.hpp"
#include "ocl/OclDeviceTable.hpp"
#include "ocl/OclOptions.hpp"
#include "ocl/OclPlan.hpp"
#include "ocl/OclRateCeiling.hpp"
#include "ocl/OclRuntime.hpp"
#include "ocl/OclSelection.hpp"
#include "topology/Team.hpp"

namespace bws::ocl {
namespace {

// Empty calls timed for the device's T0 (per call shape, bs_call_shape).
constexpr int kEmptyCallReps = 200;

class OclPlannedRun final : public PlannedRun {
 public:
  OclPlannedRun(OclPlan plan, const NodeContext& node)
      : plan_(std::move(plan)), rank_(node.rank), local_rank_(node.local_rank), host_(node.host) {}

  std::string describe() const override { return describe_ocl(plan_); }
  std::uint64_t memory_bytes() const override { return plan_.host_bytes; }

  void prepare(topo::Team&) override {
    device_ = open_ocl_device(plan_.choice.device);
    if (plan_.parts.stream) stream_ = make_ocl_stream_runner(device_, plan_.stream);
  }

  std::vector<Table> run(topo::Team&, RunContext& context) override {
    if (!device_) throw std::logic_error("ocl: run() called before prepare()");
    const OclDeviceInfo& d = plan_.choice.device;
    const double ceiling = device_rate_ceiling_Bps(d);
    Table devices = make_ocl_devices_table(), checks = make_checks_table();
    add_ocl_device_row(devices, rank_, host_, local_rank_, plan_.choice, ceiling);
    std::vector<Table> out;
    if (stream_) {
      Table results = make_ocl_stream_results_table();
      const auto progress = [&](int k) { context.progress.report("ocl STREAM", (k + 1.0) / plan_.stream.ntimes); };
      const OclStreamMeasurement m = stream_->measure(context.node_sync, progress);
      stream_.reset();
      add_ocl_stream_results(results, checks, {rank_, host_, d.compute_units, d.label()}, plan_.stream, m, ceiling);
      out.push_back(std::move(results));
    }
    if (plan_.parts.bs) {
      Table results = bs::make_bs_results_table(), fits = bs::make_bs_fits_table();
      run_bs(context, ceiling, results, fits, checks);
      out.push_back(std::move(results));
      out.push_back(std::move(fits));
    }
    out.push_back(std::move(devices));
    out.push_back(std::move(checks));
    return out;
  }

  void release() override {
    stream_.reset();
    device_.reset();
  }

 private:
  std::string bs_subject(bs::BsTest t, int degree) const {
    std::string s = "rank " + std::to_string(rank_) + " (" + host_ + ") " + bs::bs_spec(t).label + " on ocl";
    if (degree > 0) s += " N=" + std::to_string(degree);
    return s;
  }

  void run_bs(RunContext& context, double ceiling, Table& results, Table& fits, Table& checks) {
    const bs::BsParams& p = plan_.bs;
    const OclDeviceInfo& d = plan_.choice.device;
    const bs::BsRankIdentity who{rank_, host_, d.compute_units, kBackendOcl};
    int arrays = 0;
    for (bs::BsTest t : p.tests) arrays = std::max(arrays, bs::bs_spec(t).arrays);
    const std::unique_ptr<OclBsRunner> runner = make_ocl_bs_runner(device_, largest_vector_entries(p), arrays);
    double total = 0, done = 0;
    for (bs::BsTest t : p.tests)
      if (!bs::is_mesh_test(t)) total += p.points;
    for (const bs::BsDegreeSweep& s : p.mesh_sweeps)
      total += static_cast<double>(s.points.size()) * (p.runs(bs::BsTest::Gather) + p.runs(bs::BsTest::Scatter));
    auto progress = [&](bs::BsTest t) {
      done += 1;
      context.progress.report(std::string("ocl ") + bs::bs_spec(t).label, total > 0 ? done / total : 1.0);
    };

    // T0 is that of an empty call of the test's own shape: a BS3-BS5 call is
    // two launches and a read, not one launch (OclBsKernels.hpp).
    std::map<std::pair<int, bool>, double> T0_by_shape;  // measured once per shape
    auto T0_of = [&](bs::BsTest t) {
      const BsCallShape shape = bs_call_shape(t);
      const std::pair<int, bool> key{shape.launches, shape.reads_result};
      auto it = T0_by_shape.find(key);
      if (it == T0_by_shape.end()) it = T0_by_shape.emplace(key, runner->empty_call_seconds(t, kEmptyCallReps)).first;
      return it->second;
    };
    for (bs::BsTest t : p.tests) {
      if (bs::is_mesh_test(t)) continue;
      const double T0_seconds = T0_of(t);
      const auto& points = p.vector_points[static_cast<std::size_t>(t) - 1];
      bs::BsSeries series{t, 0, {}};
      for (std::size_t i = 0; i < points.size(); ++i) {
        bs::BsPoint point = runner->vector_point(t, points[i].entries, p.reps, context.node_sync);
        point.point = static_cast<int>(i);
        apply_bs_rate_ceiling(point, ceiling, checks, bs_subject(t, 0));
        series.points.push_back(std::move(point));
        progress(t);
      }
      bs::add_bs_series(results, fits, checks, who, series, p.fit_min_bytes, T0_seconds);
    }
    for (const bs::BsDegreeSweep& sweep : p.mesh_sweeps) {
      context.node_sync.barrier();
      bs::BsSeries gather{bs::BsTest::Gather, sweep.degree, {}}, scatter{bs::BsTest::Scatter, sweep.degree, {}};
      for (std::size_t i = 0; i < sweep.points.size(); ++i) {
        const int k = sweep.points[i].elements_per_side;
        const bs::HexMesh mesh = bs::make_hex_mesh(k, sweep.degree, p.mask_boundary);
        const bs::GatherCsr csr = bs::make_gather_csr(mesh);
        for (bs::BsTest t : {bs::BsTest::Gather, bs::BsTest::Scatter}) {
          if (!p.runs(t)) continue;
          bs::BsPoint point = runner->mesh_point(t, mesh, csr, p.reps);
          point.point = static_cast<int>(i);
          point.elements_per_side = k;
          apply_bs_rate_ceiling(point, ceiling, checks, bs_subject(t, sweep.degree) + " K=" + std::to_string(k));
          (t == bs::BsTest::Gather ? gather : scatter).points.push_back(std::move(point));
          progress(t);
        }
      }
      if (p.runs(bs::BsTest::Gather))
        bs::add_bs_series(results, fits, checks, who, gather, p.fit_min_bytes, T0_of(bs::BsTest::Gather));
      if (p.runs(bs::BsTest::Scatter))
        bs::add_bs_series(results, fits, checks, who, scatter, p.fit_min_bytes, T0_of(bs::BsTest::Scatter));
    }
  }

  OclPlan plan_;
  int rank_, local_rank_;
  std::string host_;
  std::shared_ptr<OclDevice> device_;
  std::unique_ptr<OclStreamRunner> stream_;
};

class OclBenchmark final : public NodeBenchmark {
 public:
  std::string name() const override { return "ocl"; }
  std::string description() const override {
    return "OpenCL device (PoCL, GPUs): seed 000's STREAM with PCI write/read, BS1-BS7 with the T0/Wmax fit, "
           "then b_eff through device buffers (--beff.path device)";
  }
  void add_options(boost::program_options::options_description& desc) const override { add_ocl_options(desc); }
  std::unique_ptr<PlannedRun> plan(const Config& config, const NodeContext& node) const override {
    return std::make_unique<OclPlannedRun>(plan_ocl(config, node), node);
  }
  std::vector<Table> summarize_node(const std::vector<Table>& rank_tables) const override {
    return summarize_ocl_stream_node(rank_tables);
  }
  std::optional<std::string> listing(const Config& config) const override {
    if (!parse_flag_text(option_text(config, kListOption, kListDefault), kListOption)) return std::nullopt;
    return device_listing(ocl_platforms(option_flag(kListOption)));
  }
};

}  // namespace

std::unique_ptr<NodeBenchmark> make_ocl_benchmark() { return std::make_unique<OclBenchmark>(); }

std::shared_ptr<const DeviceBuffersProvider> device_buffers_provider() { return ocl_device_buffers_provider(); }

bool wants_device_beff(const Config& config) { return parse_parts(option_text(config, kPartsOption, kPartsDefault)).beff; }

}  // namespace bws::ocl
