// The STREAM NodeBenchmark, one driver for every backend: plan() resolves
// the shared options (StreamPlan) and asks each backend of --stream.backend
// for its plan on this rank's device; run() times every backend's and
// type's repetitions through the device interface (StreamDevice.hpp),
// validates the arrays and turns the samples into rows of one table.
#include "stream/StreamBenchmark.hpp"

#include <stdexcept>

#include "core/BackendList.hpp"
#include "core/BudgetFit.hpp"
#include "core/Errors.hpp"
#include "core/OptionText.hpp"
#include "core/ResultColumns.hpp"
#include "stream/StreamEstimate.hpp"
#include "stream/StreamNodeSummary.hpp"
#include "stream/StreamPlan.hpp"
#include "stream/StreamResults.hpp"
#include "stream/StreamTables.hpp"
#include "topology/Team.hpp"

namespace bws::stream {
namespace {

// The operations of one repetition on a device, in the order they run.
std::vector<StreamOp> ops_of(const StreamDeviceInfo& device) {
  std::vector<StreamOp> ops;
  for (const StreamOpSpec& spec : kStreamOpSpecs)
    if (!spec.transfer || device.transfers) ops.push_back(spec.op);
  return ops;
}

// A plan over --time-budget: its estimate and the advice found so far.
struct OverBudget {
  TimeEstimate asked;
  std::string advice;  // "--stream.reps 5", or "" when no repetitions fit
};

// The devices' elements per type, the estimate's input besides the plan.
template <class Devices>
std::vector<std::vector<std::uint64_t>> elements_of(const Devices& devices, const StreamCommonParams& common) {
  std::vector<std::vector<std::uint64_t>> elements;
  for (const auto& d : devices) {
    elements.emplace_back();
    for (StreamType type : common.types) elements.back().push_back(d->elements(type));
  }
  return elements;
}

// The plan of one run is the common parameters (the one repetition count
// of every backend and type) over the planned devices; --time-budget lowers
// the repetitions when --stream.reps was left alone. Over the budget: the
// most repetitions that would fit (with kAdviceHeadroom), when any do.
FittedPlan<StreamCommonParams> fit_stream(const StreamCommonParams& given, bool reps_free, const std::string& reps_flag,
                                          const std::function<TimeEstimate(const StreamCommonParams&)>& estimate,
                                          double budget_seconds) {
  auto reps = [](bool free) { return count_knob("reps", free, &StreamCommonParams::reps, kMinReps); };
  FittedPlan<StreamCommonParams> fitted = fit_to_budget(given, budget_seconds, estimate, {reps(reps_free)});
  if (fitted.fits) return fitted;
  OverBudget over{fitted.asked, {}};
  const auto advice = fit_to_budget(given, budget_seconds / kAdviceHeadroom, estimate, {reps(true)});
  if (advice.fits) over.advice = reps_flag + " " + std::to_string(advice.plan.reps);  // as the user spelled it
  throw over;
}

class StreamPlannedRun final : public PlannedDeviceRuns<StreamDeviceRun> {
 public:
  StreamPlannedRun(std::vector<std::unique_ptr<StreamDeviceRun>> devices, const NodeContext& node)
      : PlannedDeviceRuns(std::move(devices)), who_{node.rank, node.host}, speed_(node.speed) {}

  // Fitting returns a new plan; the run, the plan line, the estimate and
  // the stored configuration read it from here.
  void fit(const StreamCommonParams& given, bool reps_free, const std::string& reps_flag, double budget_seconds) {
    const auto fitted = fit_stream(
        given, reps_free, reps_flag, [this](const StreamCommonParams& c) { return estimate_of(c); }, budget_seconds);
    common_ = fitted.plan;
    fitted_ = fitted.changes;
  }

  std::string describe() const override {
    return PlannedDeviceRuns::describe() + ", " + std::to_string(common_.reps) + " repetitions" +
           (fitted_.empty() ? "" : " (fitted to --time-budget: " + fitted_ + ")");
  }
  TimeEstimate estimate() const override {
    TimeEstimate e = estimate_of(common_);
    if (!fitted_.empty()) e.terms += "; fitted to --time-budget: " + fitted_;
    return e;
  }
  std::map<std::string, std::string> fitted_options() const override {
    if (fitted_.empty()) return {};
    return {{stream_schema().name_of(&StreamOptions::reps), std::to_string(common_.reps)}};
  }

  std::uint64_t elements() const {
    return runs_.empty() || common_.types.empty() ? 0 : runs_.front()->elements(common_.types.front());
  }

  std::vector<Table> run(topo::Team& team, RunContext& context) override {
    Table results = make_stream_results_table();
    Table checks = make_checks_table();
    std::vector<Table> out;
    const double steps = static_cast<double>(runs_.size() * common_.types.size());
    double step = 0;
    for (auto& d : runs_) {
      const StreamDeviceInfo info = d->info(team);
      for (StreamType type : common_.types) {
        const std::string stage = "stream " + std::string(type_name(type)) + (info.backend == kBackendCpu ? "" : " on " + info.backend);
        auto progress = [&](int repetition) {
          context.progress.report(stage, (step + (repetition + 1.0) / common_.reps) / steps);
        };
        StreamDeviceArrays& arrays = d->arrays(team, type);
        add_stream_results(results, checks, who_, info,
                           measure(arrays, info, type, d->elements(type), context, progress));
        step += 1;
      }
      for (Table& t : d->device_tables("stream")) out.push_back(std::move(t));
    }
    out.insert(out.begin(), std::move(results));
    out.push_back(std::move(checks));
    return out;
  }

 private:
  StreamTypeMeasurement measure(StreamDeviceArrays& arrays, const StreamDeviceInfo& info, StreamType type,
                                std::uint64_t elements, RunContext& context,
                                const std::function<void(int)>& after_repetition) const {
    StreamTypeMeasurement m;
    m.type = type;
    m.stores = arrays.stores();
    m.variant = arrays.variant();
    m.elements = elements;
    m.reps = common_.reps;
    m.ops = ops_of(info);
    m.seconds.resize(m.ops.size());
    for (auto& s : m.seconds) s.reserve(static_cast<std::size_t>(common_.reps));
    for (int k = 0; k < common_.reps; ++k) {
      for (std::size_t i = 0; i < m.ops.size(); ++i) m.seconds[i].push_back(arrays.run_timed(m.ops[i], context.node_sync));
      after_repetition(k);
    }
    m.validation = arrays.validate(common_.reps, common_.validation);
    return m;
  }

  TimeEstimate estimate_of(const StreamCommonParams& c) const {
    return estimate_stream(c, elements_of(runs_, c), memory_bytes(), speed_);
  }

  StreamCommonParams common_;
  RankIdentity who_;
  MachineSpeed speed_;
  std::string fitted_;  // what --time-budget changed
};

class StreamBenchmark final : public NodeBenchmark {
 public:
  explicit StreamBenchmark(StreamBackends backends) : backends_(std::move(backends)) {}
  std::string name() const override { return "stream"; }
  std::string description() const override {
    return "STREAM 5.10 Copy, Scale, Add, Triad on NUMA-local arrays (McCalpin; bytes without write-allocate), "
           "or on a device (--" + stream_schema().name_of(&StreamOptions::backends) + ")";
  }
  void add_options(boost::program_options::options_description& desc) const override {
    add_stream_options(desc);
    for (const auto& [name, backend] : backends_) backend->add_options(desc);
  }
  std::unique_ptr<PlannedRun> plan(const Config& config, const NodeContext& node) const override {
    try {
      return plan_fitted(config, node);
    } catch (const OverBudget& over) {
      std::string advice = over.advice;
      if (const std::uint64_t elements = elements_that_fit(config, node); elements > 0)
        advice += std::string(advice.empty() ? "" : " or ") + "--" + stream_schema().name_of(&StreamOptions::elements) + " " + std::to_string(elements);
      throw UsageError(over_budget_message("stream", over.asked, node.time_budget_seconds, advice));
    }
  }
  std::vector<Table> summarize_node(const std::vector<Table>& rank_tables) const override {
    return summarize_stream_node(rank_tables);
  }

 private:
  std::unique_ptr<StreamPlannedRun> plan_fitted(const Config& config, const NodeContext& node) const {
    const StreamOptions options = stream_schema().read(config, node.quick);
    const StreamCommonParams common = plan_stream_common(options);
    std::vector<std::unique_ptr<StreamDeviceRun>> devices;
    for (const std::string& name : parse_backend_list(options.backends, options.flag(&StreamOptions::backends), backend_names()))
      devices.push_back(backends_.at(name)->plan(config, options, node, common));
    auto planned = std::make_unique<StreamPlannedRun>(std::move(devices), node);
    planned->fit(common, options.defaulted(&StreamOptions::reps), options.flag(&StreamOptions::reps),
                 node.time_budget_seconds);
    return planned;
  }

  // The refusal's advice: the most --stream.elements (halving) with which
  // this very planning fits the budget with kAdviceHeadroom, the other
  // options as given; 0 when none does.
  std::uint64_t elements_that_fit(const Config& config, const NodeContext& node) const {
    NodeContext unbounded = node;
    unbounded.time_budget_seconds = 0;
    NodeContext tighter = node;
    tighter.time_budget_seconds = node.time_budget_seconds / kAdviceHeadroom;
    Config trial = config;
    for (std::uint64_t n = plan_fitted(config, unbounded)->elements() / 2; n >= kMinElements; n /= 2) {
      trial.set(stream_schema().name_of(&StreamOptions::elements), std::to_string(n));
      try {
        plan_fitted(trial, tighter);
        return n;
      } catch (const OverBudget&) {
      } catch (const UsageError&) {  // a size some backend does not take: smaller ones may not either
        return 0;
      }
    }
    return 0;
  }

  std::vector<std::string> backend_names() const {
    std::vector<std::string> names;
    for (const auto& [name, backend] : backends_) names.push_back(name);
    return names;
  }
  StreamBackends backends_;
};

}  // namespace

std::unique_ptr<NodeBenchmark> make_stream_benchmark(StreamBackends backends) {
  return std::make_unique<StreamBenchmark>(std::move(backends));
}

std::unique_ptr<NodeBenchmark> make_stream_benchmark() {
  return make_stream_benchmark(StreamBackends{{kBackendCpu, cpu_stream_backend()}});
}

}  // namespace bws::stream
