#include "run/Coordinator.hpp"

#include <mpi.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>

#include "bws/Version.hpp"
#include "core/Errors.hpp"
#include "core/OptionAliases.hpp"
#include "model/NodeFlags.hpp"
#include "run/ChecksStep.hpp"
#include "run/FaultHooks.hpp"
#include "run/NodeTurns.hpp"
#include "run/PhasePlan.hpp"
#include "run/PhaseRunner.hpp"
#include "run/ResultSink.hpp"
#include "run/Retest.hpp"
#include "report/RunSummary.hpp"
#include "run/RunText.hpp"
#include "run/RunWorld.hpp"
#include "run/SetupStep.hpp"
#include "run/Watchdog.hpp"


namespace bws::run {
namespace {

// How long the other ranks' watchdogs give rank 0 to end the job itself
// (after a step's deadline, or after a signal).
constexpr double kWatchdogGraceSeconds = 10;

// One run: a loop over the planned phases, with its collaborators: the plan
// (PhasePlan), the node's turns (NodeTurns), rank 0's result file and
// outcome (ResultSink), the test hooks (FaultHooks), the steps (SetupStep,
// PhaseRunner, Retest, ChecksStep) and the summary (RunSummary).
class Survey {
 public:
  Survey(const CommandLine& cl, ConsoleStreams console)
      : cl_(cl),
        console_(console),
        world_(discover_run_world()),
        hooks_(read_test_hooks(), world_, console.err),
        sink_(world_, console.out, console.err, hooks_) {}

  int run() {
    hooks_.announce();
    watchdog_ = std::make_unique<Watchdog>(
        MPI_COMM_WORLD, world_.layout.host, world_.rank_hosts,
        [this](const std::string& reason) { abort_job(reason, true); }, kWatchdogGraceSeconds);
    if (auto refused = plan_run(cl_, world_, plan_)) return refuse(*refused);
    hooks_.decorate(plan_.phases);
    turns_.emplace(world_, *plan_.topology, plan_.slots, console_.err);
    CommandLine stored = cl_;  // the file's /config: what the plans run, fitting included
    stored.config = fitted_config(cl_.config, plan_.phases);
    if (auto refused = sink_.open(stored, plan_.settings, std::move(plan_.exporters))) return refuse(*refused);
    announce_deprecations();
    team_ = start_team(world_, plan_, sink_, hooks_);
    if (!team_ || !describe_run(world_, plan_, *team_, sink_, *watchdog_, hooks_)) return finish(kExitFailure);
    PhaseRunner runner(world_, *turns_, *team_, sink_, *watchdog_, hooks_, plan_.settings.phase_timeout_seconds,
                       console_.err, [this](const std::string& reason) { abort_job(reason); });
    for (Phase& phase : plan_.phases) {
      if (sink_.holds(phase.label)) {
        if (world_.root())
          console_.err << "bwsurvey: " << phase.label << ": stored in the resumed file; not run again" << std::endl;
        continue;
      }
      if (!runner.run(phase)) return finish(kExitOk);  // the outcome holds why
    }
    retest_values_ = Retest(world_, plan_, *turns_, *team_, *watchdog_, console_.err).run(sink_.kept(), hooks_);
    return finish(kExitOk);
  }

 private:
  // The old option names given, one line each, once the run is accepted (a
  // refused one says one line, its reason): rank 0 alone, once.
  void announce_deprecations() {
    if (world_.root())
      for (const Deprecation& d : cl_.deprecations) console_.err << "bwsurvey: " << deprecation_line(d) << std::endl;
  }

  // Setup refused on every rank (options, the file): rank 0 says why.
  int refuse(const SetupFailure& failure) {
    if (world_.root()) console_.err << "bwsurvey: error: " << failure.message << std::endl;
    return failure.exit_code;
  }

  // The checks step, the file's final status, the summary and the exit code
  // (1 before 3 before 0, the same on every rank).
  int finish(int code) {
    team_.reset();
    int exit_code = code;
    if (world_.root()) {
      // From here on this thread ends the run; a watchdog that got there
      // first (a signal) ends the job itself.
      if (sink_.claim_ending() && sink_.is_open()) park();
      const std::optional<Table> flags = run_checks_step(sink_, plan_, retest_values_);
      exit_code = code != kExitOk ? code : sink_.outcome().exit_code();
      if (exit_code == kExitOk && plan_.settings.fail_on_flags && flags && !model::flagged_hosts(*flags, true).empty())
        exit_code = kExitCheckFailed;
      if (!sink_.close()) exit_code = kExitFailure;
      print_summary(flags);
      std::error_code error;
      if (std::filesystem::exists(plan_.settings.out, error))
        console_.out << "Results: " << std::filesystem::absolute(plan_.settings.out).string() << std::endl;
    }
    MPI_Bcast(&exit_code, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return exit_code;
  }

  // Rank 0, when ranks are lost (a timeout, from the main thread or the
  // watchdog) or a signal cut the run: the file goes back to its last
  // complete step and says why the run stopped; then the whole job ends.
  // Returns only to a watchdog when the job is already being ended.
  void abort_job(const std::string& message, bool from_watchdog = false) {
    if (sink_.claim_ending()) {
      if (from_watchdog) return;
      park();
    }
    const std::string line = one_line(message);
    console_.err << "bwsurvey: error: " << line << std::endl;
    if (!from_watchdog) {  // the watchdog must not read what the main thread may be changing
      sink_.outcome().runtime_failure(line);
      print_summary(std::nullopt);
    }
    sink_.end_file(line, from_watchdog);
    // From the watchdog thread too, though MPI runs SINGLE: Open MPI's
    // abort goes through its own PMIx/OOB threads (docs/design-notes.md).
    MPI_Abort(MPI_COMM_WORLD, kExitFailure);
    std::abort();
  }

  // Rank 0: the summary (RunSummary, as `bwreport summary` shows it), from
  // the tables kept during the run. flags: when the nodes were checked.
  void print_summary(const std::optional<Table>& flags) {
    const int n_nodes = world_.layout.n_nodes;
    report::SummaryRecord record;
    for (const CatalogEntry* entry : entries_of(plan_.phases))
      if (std::vector<Table> tables = sink_.kept().of(*entry); !tables.empty())
        record.reports.emplace_back(entry, std::move(tables));
    if (flags) {
      record.flags = flags;
      if (const Table* nodes = sink_.kept().nodes()) record.nodes = *nodes;
      record.file = std::filesystem::absolute(plan_.settings.out).string();
    }
    record.n_nodes = n_nodes;
    record.outcome = sink_.outcome();
    std::ostream& out = console_.out;
    out << "\nbwsurvey " << BWS_VERSION << ": " << n_nodes << (n_nodes == 1 ? " node, " : " nodes, ") << world_.size
        << (world_.size == 1 ? " rank" : " ranks") << "\n";
    for (const std::string& line : report::summary_lines(record)) out << line << "\n";
    out.flush();
  }

  const CommandLine& cl_;
  ConsoleStreams console_;
  RunWorld world_;
  FaultHooks hooks_;
  RunPlan plan_;
  std::optional<NodeTurns> turns_;
  ResultSink sink_;
  std::unique_ptr<topo::Team> team_;
  std::vector<model::NodeMetricValue> retest_values_;  // rank 0: every retest round's values
  std::unique_ptr<Watchdog> watchdog_;  // last: stopped before anything it may touch is destroyed
};

}  // namespace

int run_survey(const CommandLine& command_line, ConsoleStreams console) {
  Survey survey(command_line, console);
  return survey.run();
}

}  // namespace bws::run
