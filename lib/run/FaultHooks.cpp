#include "run/FaultHooks.hpp"

#include <mpi.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <ostream>
#include <thread>

#include "core/Errors.hpp"
#include "run/RunText.hpp"

namespace bws::run {
namespace {

// stop: this rank stops itself (SIGSTOP) at the first progress report,
// inside its measurement.
class StoppingProgress final : public Progress {
 public:
  StoppingProgress(Progress& inner, bool& stopped) : inner_(inner), stopped_(stopped) {}
  void report(std::string_view stage, double fraction) override {
    if (!stopped_) {
      stopped_ = true;
      std::raise(SIGSTOP);
    }
    inner_.report(stage, fraction);
  }

 private:
  Progress& inner_;
  bool& stopped_;
};

// A node-local planned run with this rank's faults.
class FaultyRun final : public PlannedRun {
 public:
  FaultyRun(std::unique_ptr<PlannedRun> inner, bool fail_prepare, bool hang, bool stop)
      : inner_(std::move(inner)), fail_prepare_(fail_prepare), hang_(hang), stop_(stop) {}
  std::string describe() const override { return inner_->describe(); }
  TimeEstimate estimate() const override { return inner_->estimate(); }
  std::map<std::string, std::string> fitted_options() const override { return inner_->fitted_options(); }
  std::uint64_t memory_bytes() const override { return inner_->memory_bytes(); }
  void prepare(topo::Team& team) override {
    if (fail_prepare_) throw RuntimeFailure("fault injected by BWSURVEY_INJECT_FAULT");
    while (hang_) std::this_thread::sleep_for(std::chrono::seconds(1));  // until the job is ended
    inner_->prepare(team);
  }
  std::vector<Table> run(topo::Team& team, RunContext& context) override {
    if (!stop_) return inner_->run(team, context);
    StoppingProgress stopping(context.progress, stopped_);
    RunContext stopping_context{stopping, context.node_sync};
    return inner_->run(team, stopping_context);
  }
  void release() override { inner_->release(); }

 private:
  std::unique_ptr<PlannedRun> inner_;
  bool fail_prepare_, hang_, stop_;
  bool stopped_ = false;
};

// stop, in a collective benchmark: it reports progress on rank 0 only, so
// the rank named stops as it enters it (the rest wait inside it).
class StoppingCollective final : public PlannedCollective {
 public:
  explicit StoppingCollective(std::unique_ptr<PlannedCollective> inner) : inner_(std::move(inner)) {}
  std::string describe() const override { return inner_->describe(); }
  TimeEstimate estimate() const override { return inner_->estimate(); }
  std::map<std::string, std::string> fitted_options() const override { return inner_->fitted_options(); }
  std::vector<Table> run(Communicator& world, Progress& progress, MatrixSink& matrices) override {
    if (!stopped_) {
      stopped_ = true;
      std::raise(SIGSTOP);
    }
    return inner_->run(world, progress, matrices);
  }

 private:
  std::unique_ptr<PlannedCollective> inner_;
  bool stopped_ = false;
};

}  // namespace

void FaultHooks::announce() const {
  if (!world_.root()) return;
  const std::vector<std::string> set = hook_variables_set();
  if (set.empty()) return;
  if (test_hooks_compiled())
    err_ << "bwsurvey: TEST HOOK ACTIVE (results are altered on purpose): " << joined(set) << std::endl;
  else
    err_ << "bwsurvey: ignored (this build has no test hooks): " << joined(set) << std::endl;
}

void FaultHooks::decorate(std::vector<Phase>& phases) const {
  const bool fail_prepare = hooks_.fail_prepare_rank == world_.rank;
  const bool hang = hooks_.hang_rank == world_.rank;
  for (Phase& phase : phases) {
    const bool stop = hooks_.stop_rank == world_.rank && hooks_.stop_phase == phase.label;
    if (phase.collective && stop) phase.collective = std::make_unique<StoppingCollective>(std::move(phase.collective));
    if (phase.node_run && (fail_prepare || hang || stop))
      phase.node_run = std::make_unique<FaultyRun>(std::move(phase.node_run), fail_prepare, hang, stop);
  }
}

void FaultHooks::on_step_start(const std::string& step, h5::ResultFile& file) const {
  if (hooks_.write_error_step == step) file.fail_writes_for_test(EIO);
}

void FaultHooks::after_phase_stored(const std::string& label) const {
  if (hooks_.kill_after_phase != label) return;
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_.root()) err_ << "bwsurvey: BWSURVEY_INJECT_FAULT: killing every rank" << std::endl;
  std::raise(SIGKILL);
  std::abort();
}

void FaultHooks::slow_down(topo::Team& team) const {
  if (hooks_.slow_factor > 1 && hooks_.slow_host == world_.layout.host) team.set_slowdown(hooks_.slow_factor);
}

void FaultHooks::before_retest(topo::Team* team) const {
  if (hooks_.slow_first_pass_only && team) team->set_slowdown(1.0);  // a transient slowdown
}

std::uint64_t FaultHooks::declared_memory_bytes() const {
  const auto it = hooks_.fake_memory_bytes.find(world_.layout.host);
  return it == hooks_.fake_memory_bytes.end() ? 0 : it->second;
}

}  // namespace bws::run
