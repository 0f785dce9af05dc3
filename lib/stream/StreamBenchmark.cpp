// The STREAM NodeBenchmark: plan() resolves the options (StreamPlan),
// prepare() allocates one NUMA-local buffer and first-touches it on the
// Team, run() times every type's repetitions and validates the arrays.
#include "stream/StreamBenchmark.hpp"

#include <stdexcept>

#include "core/ResultColumns.hpp"
#include "stream/StreamNodeSummary.hpp"
#include "stream/StreamPlan.hpp"
#include "stream/StreamResults.hpp"
#include "stream/StreamTables.hpp"
#include "stream/StreamTeamJobs.hpp"
#include "topology/NumaBuffer.hpp"
#include "topology/Team.hpp"

namespace bws::stream {
namespace {

class StreamPlannedRun final : public PlannedRun {
 public:
  StreamPlannedRun(StreamParams params, const NodeContext& node)
      : params_(std::move(params)), topology_(&node.topology), who_{node.rank, node.host, node.threads} {}

  std::string describe() const override { return describe_stream(params_); }
  std::uint64_t memory_bytes() const override { return params_.buffer_bytes; }

  void prepare(topo::Team& team) override {
    buffer_ = topo::NumaBuffer(*topology_, params_.buffer_bytes);
    initialize(team, 0);
  }

  std::vector<Table> run(topo::Team& team, RunContext& context) override {
    if (buffer_.data() == nullptr) throw std::logic_error("stream: run() called before prepare()");
    who_.threads = team.size();
    Table results = make_stream_results_table();
    Table checks = make_checks_table();
    for (std::size_t i = 0; i < params_.runs.size(); ++i) {
      const StreamTypeRun& r = params_.runs[i];
      if (initialized_run_ != static_cast<int>(i)) initialize(team, i);
      initialized_run_ = -1;  // the kernels change the arrays: a later run re-initialises
      const std::string stage = "stream " + std::string(type_name(r.type));
      const double runs = static_cast<double>(params_.runs.size());
      auto progress = [&](int repetition) {
        context.progress.report(stage, (static_cast<double>(i) + (repetition + 1.0) / params_.ntimes) / runs);
      };
      StreamTypeMeasurement m;
      m.type = r.type;
      m.stores = r.stores;
      m.elements = params_.elements;
      m.ntimes = params_.ntimes;
      if (r.type == StreamType::Double)
        measure<double>(team, context, r, progress, m);
      else
        measure<float>(team, context, r, progress, m);
      add_stream_results(results, checks, who_, m);
    }
    return {std::move(results), std::move(checks)};
  }

  void release() override {
    buffer_ = topo::NumaBuffer();
    initialized_run_ = -1;
  }

 private:
  // Arrays of all types share the buffer; each type's layout is written anew
  // by the same threads (the pages keep the NUMA node of their first touch).
  void initialize(topo::Team& team, std::size_t run_index) {
    const StreamTypeRun& r = params_.runs[run_index];
    if (r.type == StreamType::Double)
      initialize_on_team(team, arrays_in<double>(buffer_.data(), r.layout), params_.elements);
    else
      initialize_on_team(team, arrays_in<float>(buffer_.data(), r.layout), params_.elements);
    initialized_run_ = static_cast<int>(run_index);
  }

  template <class T>
  void measure(topo::Team& team, RunContext& context, const StreamTypeRun& r, const std::function<void(int)>& progress,
               StreamTypeMeasurement& m) {
    const StreamArrays<T> arrays = arrays_in<T>(buffer_.data(), r.layout);
    m.seconds = time_on_team(team, context, arrays, params_.elements, params_.ntimes, r.stores, progress);
    m.validation = validate_on_team(team, arrays, params_.elements, params_.ntimes, params_.validation);
  }

  StreamParams params_;
  const topo::Topology* topology_;
  RankIdentity who_;
  topo::NumaBuffer buffer_;
  int initialized_run_ = -1;  // the run whose initial values the arrays hold
};

class StreamBenchmark final : public NodeBenchmark {
 public:
  std::string name() const override { return "stream"; }
  std::string description() const override {
    return "STREAM 5.10 Copy, Scale, Add, Triad on NUMA-local arrays (McCalpin; bytes without write-allocate)";
  }
  void add_options(boost::program_options::options_description& desc) const override { add_stream_options(desc); }
  std::unique_ptr<PlannedRun> plan(const Config& config, const NodeContext& node) const override {
    return std::make_unique<StreamPlannedRun>(plan_stream(config, node), node);
  }
  std::vector<Table> summarize_node(const std::vector<Table>& rank_tables) const override {
    return summarize_stream_node(rank_tables);
  }
};

}  // namespace

std::unique_ptr<NodeBenchmark> make_stream_benchmark() { return std::make_unique<StreamBenchmark>(); }

}  // namespace bws::stream
