// The load NodeBenchmark: plan() reads the options (LoadPlan), prepare()
// allocates one NUMA-local array and first-touches it on the Team, run()
// times each kernel's passes on a freshly initialised array and checks the
// checksum each leaves.
#include "load/LoadBenchmark.hpp"

#include <stdexcept>

#include "core/ResultColumns.hpp"
#include "load/LoadOptions.hpp"
#include "load/LoadPlan.hpp"
#include "load/LoadResults.hpp"
#include "load/LoadTables.hpp"
#include "load/LoadTeamJobs.hpp"
#include "topology/NumaBuffer.hpp"
#include "topology/Team.hpp"

namespace bws::load {
namespace {

class LoadPlannedRun final : public PlannedRun {
 public:
  LoadPlannedRun(LoadParams params, const NodeContext& node)
      : params_(std::move(params)), topology_(&node.topology), who_{node.rank, node.host, node.threads}, speed_(node.speed) {}

  std::string describe() const override { return describe_load(params_); }
  TimeEstimate estimate() const override { return estimate_load(params_, speed_); }
  std::uint64_t memory_bytes() const override { return 8 * params_.elements; }

  void prepare(topo::Team& team) override {
    buffer_ = topo::NumaBuffer(*topology_, memory_bytes());
    initialize_on_team(team, array(), params_.elements);  // the first touch: each thread's pages near it
  }

  std::vector<Table> run(topo::Team& team, RunContext& context) override {
    if (buffer_.data() == nullptr) throw std::logic_error("load: run() called before prepare()");
    who_.threads = team.size();
    Table results = make_load_results_table();
    Table checks = make_checks_table();
    const double kernels = static_cast<double>(params_.kernels.size());
    for (std::size_t i = 0; i < params_.kernels.size(); ++i) {
      const LoadKernel kernel = params_.kernels[i];
      const std::string stage = "load " + std::string(spec_of(kernel).name);
      if (i > 0) initialize_on_team(team, array(), params_.elements);  // store and update changed it
      const auto progress = [&](int pass) {
        context.progress.report(stage, (static_cast<double>(i) + (pass + 1.0) / params_.reps) / kernels);
      };
      const KernelMeasurement m =
          measure_on_team(team, context, array(), params_.elements, kernel, params_.reps, progress);
      add_load_results(results, checks, who_, params_.elements, params_.reps, m);
    }
    return {std::move(results), std::move(checks)};
  }

  void release() override { buffer_ = topo::NumaBuffer(); }

 private:
  double* array() const { return static_cast<double*>(buffer_.data()); }

  LoadParams params_;
  const topo::Topology* topology_;
  RankIdentity who_;
  MachineSpeed speed_;
  topo::NumaBuffer buffer_;
};

class LoadBenchmark final : public NodeBenchmark {
 public:
  std::string name() const override { return "load"; }
  std::string description() const override {
    return "likwid-bench load (sum += a[i], read only), store and update on one NUMA-local array of doubles";
  }
  void add_options(boost::program_options::options_description& desc) const override { load_schema().add_to(desc); }
  std::unique_ptr<PlannedRun> plan(const Config& config, const NodeContext& node) const override {
    return std::make_unique<LoadPlannedRun>(plan_load(config, node), node);
  }
  std::vector<Table> summarize_node(const std::vector<Table>& rank_tables) const override {
    return summarize_load_node(rank_tables);
  }
};

}  // namespace

std::unique_ptr<NodeBenchmark> make_load_benchmark() { return std::make_unique<LoadBenchmark>(); }

}  // namespace bws::load
