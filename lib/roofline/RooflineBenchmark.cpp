// The roofline NodeBenchmark: plan() resolves the options (RooflinePlan),
// prepare() allocates the GEMM matrices and the Triad arrays on the rank's
// NUMA node and first-touches them on the Team, run() measures the FMA peak
// (double, float), GEMM (double, float; when a BLAS is linked) and the Triad.
#include "roofline/RooflineBenchmark.hpp"

#include <stdexcept>

#include "core/ResultColumns.hpp"
#include "roofline/Gemm.hpp"
#include "roofline/RooflineNodeSummary.hpp"
#include "roofline/RooflinePlan.hpp"
#include "roofline/RooflineResults.hpp"
#include "roofline/RooflineTables.hpp"
#include "roofline/RooflineTeamJobs.hpp"
#include "topology/NumaBuffer.hpp"
#include "topology/Team.hpp"

namespace bws::roofline {
namespace {

class RooflinePlannedRun final : public PlannedRun {
 public:
  RooflinePlannedRun(RooflineParams params, const NodeContext& node)
      : params_(std::move(params)), topology_(&node.topology), who_{node.rank, node.host, node.threads}, speed_(node.speed) {}

  std::string describe() const override { return describe_roofline(params_); }
  TimeEstimate estimate() const override { return estimate_roofline(params_, speed_); }
  std::uint64_t memory_bytes() const override { return params_.memory_bytes(); }

  void prepare(topo::Team& team) override {
    if (params_.gemm) {
      gemm_ = topo::NumaBuffer(*topology_, params_.gemm_buffer_bytes);
      first_touch_gemm(team, params_, static_cast<unsigned char*>(gemm_.data()));
    }
    triad_ = topo::NumaBuffer(*topology_, params_.triad_layout.total_bytes);
    first_touch_triad(team, params_, static_cast<unsigned char*>(triad_.data()));
  }

  std::vector<Table> run(topo::Team& team, RunContext& context) override {
    if (triad_.data() == nullptr) throw std::logic_error("roofline: run() called before prepare()");
    who_.threads = team.size();
    const double steps = params_.gemm ? 5 : 3;
    double done = 0;
    auto progress = [&](const char* stage) { context.progress.report(stage, ++done / steps); };

    std::vector<RooflineMeasurement> measured;
    for (StreamType type : {StreamType::Double, StreamType::Float}) {
      measured.push_back(measure_fma(team, context, params_.isa, type, params_.min_time_seconds, params_.reps));
      progress(type == StreamType::Double ? "roofline FMA double" : "roofline FMA float");
    }
    if (params_.gemm)
      for (StreamType type : {StreamType::Double, StreamType::Float}) {
        measured.push_back(measure_gemm(team, context, params_, static_cast<unsigned char*>(gemm_.data()), type));
        progress(type == StreamType::Double ? "roofline DGEMM" : "roofline SGEMM");
      }
    measured.push_back(measure_triad(team, context, params_, static_cast<unsigned char*>(triad_.data())));
    progress("roofline Triad");

    Table results = make_roofline_results_table(), ranks = make_roofline_ranks_table(), checks = make_checks_table();
    add_roofline_results(results, checks, ranks, who_, measured, blas_description());
    if (!params_.gemm && who_.rank == 0)
      add_check(checks, {"roofline.gemm", "DGEMM/SGEMM not available: this build has no BLAS (libopenblas-dev)",
                         "warning", 0, 1, 1, 1, "", false});
    return {std::move(results), std::move(ranks), std::move(checks)};
  }

  void release() override {
    gemm_ = topo::NumaBuffer();
    triad_ = topo::NumaBuffer();
  }

 private:
  RooflineParams params_;
  const topo::Topology* topology_;
  RooflineRank who_;
  MachineSpeed speed_;
  topo::NumaBuffer gemm_, triad_;
};

class RooflineBenchmark final : public NodeBenchmark {
 public:
  std::string name() const override { return "roofline"; }
  std::string description() const override {
    return "roofline ceilings (Williams et al.; Andreolli et al.): FMA peak FLOP/s (double, float), DGEMM/SGEMM through a BLAS, STREAM Triad "
           "B/s, machine balance FLOP/byte";
  }
  void add_options(boost::program_options::options_description& desc) const override { roofline_schema().add_to(desc); }
  std::unique_ptr<PlannedRun> plan(const Config& config, const NodeContext& node) const override {
    return std::make_unique<RooflinePlannedRun>(plan_roofline(config, node), node);
  }
  std::vector<Table> summarize_node(const std::vector<Table>& rank_tables) const override {
    return summarize_roofline_node(rank_tables);
  }
};

}  // namespace

std::unique_ptr<NodeBenchmark> make_roofline_benchmark() { return std::make_unique<RooflineBenchmark>(); }

}  // namespace bws::roofline
