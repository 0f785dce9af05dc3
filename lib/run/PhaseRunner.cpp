#include "run/PhaseRunner.hpp"

#include <mpi.h>

#include <cstdio>
#include <ostream>

#include "run/ConsoleProgress.hpp"
#include "run/H5MatrixSink.hpp"
#include "run/PhaseRendezvous.hpp"
#include "run/MpiCommunicator.hpp"

namespace bws::run {
PhaseRunner::PhaseRunner(const RunWorld& world, const NodeTurns& turns, topo::Team& team, ResultSink& sink,
                         Watchdog& watchdog, const FaultHooks& hooks, double phase_timeout_seconds, std::ostream& err,
                         AbortJob abort_job)
    : world_(world),
      turns_(turns),
      team_(team),
      sink_(sink),
      watchdog_(watchdog),
      hooks_(hooks),
      phase_timeout_seconds_(phase_timeout_seconds),
      err_(err),
      abort_job_(std::move(abort_job)) {}

// Collective: the phase's estimate, the slowest rank's (a node whose ranks
// take turns adds its turns), with rank 0's terms; rank 0 says it.
TimeEstimate PhaseRunner::announce_estimate(const Phase& phase) {
  TimeEstimate mine = phase.collective ? phase.collective->estimate() : phase.node_run->estimate();
  double seconds = mine.seconds;
  if (!phase.collective && seconds >= 0) seconds *= turns_.turns();
  double reduced[2] = {seconds, -seconds};  // the largest, and whether any rank's is unknown
  MPI_Allreduce(MPI_IN_PLACE, reduced, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  TimeEstimate phase_estimate{reduced[1] > 0 ? -1 : reduced[0], mine.terms};
  if (world_.root()) {
    if (phase_estimate.known())
      err_ << "bwsurvey: " << phase.label << ": estimated " << duration_text(phase_estimate.seconds) << " (plan: "
           << phase_estimate.terms << ")" << std::endl;
    else
      err_ << "bwsurvey: " << phase.label << ": no estimate of its time" << std::endl;
  }
  return phase_estimate;
}

bool PhaseRunner::run(Phase& phase) {
  const TimeEstimate estimate = announce_estimate(phase);
  const double start = MPI_Wtime();
  if (world_.root()) sink_.start_step(phase.entry->name);
  if (!sink_.survived(phase.label)) return false;
  watchdog_.arm(phase.label, phase_timeout_seconds_);
  deadline_ = phase_timeout_seconds_ > 0 ? MPI_Wtime() + phase_timeout_seconds_ : 0;
  const bool ok = phase.entry->collective() ? run_collective(phase) : run_node_local(phase);
  watchdog_.disarm();
  if (ok && world_.root()) sink_.complete_phase(phase.label);
  // The side files follow the result file: a phase it could not keep is
  // kept apart in them too (a resume measures it again).
  const bool stored = sink_.survived(phase.label);
  if (world_.root()) sink_.finish_exporter(phase.entry->name, ok && stored);
  if (ok && stored && world_.root()) {
    char took[96];
    if (estimate.known())
      std::snprintf(took, sizeof took, "took %.3f s (estimated %.3f s)", MPI_Wtime() - start, estimate.seconds);
    else
      std::snprintf(took, sizeof took, "took %.3f s (no estimate)", MPI_Wtime() - start);
    err_ << "bwsurvey: " << phase.label << ": " << took << std::endl;
  }
  if (ok && stored) hooks_.after_phase_stored(phase.label);
  return ok && stored;
}

std::string PhaseRunner::error_line(const CatalogEntry& entry, const std::exception& e) const {
  return entry.name + ": " + world_.rank_name() + ": " + e.what();
}

std::optional<std::string> PhaseRunner::meet(const CatalogEntry& entry, const std::optional<std::string>& mine,
                                             const char* step) {
  watchdog_.at(Watchdog::kWaiting);
  const Rendezvous met = meet_at_root(MPI_COMM_WORLD, mine, world_.root() ? deadline_ : 0, rendezvous_tag_++);
  if (!met.missing.empty()) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", phase_timeout_seconds_);
    abort_job_(entry.name + ": " + (met.missing.size() == 1 ? "rank " : "ranks ") +
               describe_ranks(met.missing, world_.rank_hosts) + " did not finish " + step +
               " within --phase-timeout " + limit + " s; the job is aborted");
  }
  return met.error;
}

bool PhaseRunner::run_node_local(Phase& phase) {
  const CatalogEntry& entry = *phase.entry;
  PlannedRun& planned = *phase.node_run;
  const bool root = world_.root();
  if (root) err_ << "bwsurvey: " << phase.label << ": " << planned.describe() << std::endl;

  std::optional<std::string> error;
  watchdog_.at("preparing");
  try {
    planned.prepare(team_);
  } catch (const std::exception& e) {
    error = error_line(entry, e);
  }
  if (auto agreed = meet(entry, error, "preparing")) {
    planned.release();
    if (root) sink_.outcome().runtime_failure(*agreed);
    return false;
  }

  ConsoleProgress console_progress(err_, entry.name);
  NullProgress silent;
  MpiNodeSync node_sync(turns_.turn_comm());  // the ranks measured together: this rank's turn
  RunContext context{root ? static_cast<Progress&>(console_progress) : silent, node_sync};
  RecordBundle records;
  std::optional<std::string> run_error;
  watchdog_.at("measuring");
  turns_.run_in_turns([&] {
    try {
      records.rank_tables = planned.run(team_, context);
    } catch (const std::exception& e) {
      run_error = error_line(entry, e);
    }
  });
  planned.release();
  if (root) console_progress.done();
  // Before any collective: a rank that never returns is named, not waited for.
  run_error = meet(entry, run_error, "measuring");

  watchdog_.at(root ? "storing the results" : Watchdog::kWaiting);
  records.node_tables = turns_.summarize(*phase.node_benchmark, records.rank_tables);
  sink_.gather(records, &entry);
  if (run_error) {
    if (root) sink_.outcome().runtime_failure(*run_error);
    return false;
  }
  return true;
}

bool PhaseRunner::run_collective(Phase& phase) {
  const CatalogEntry& entry = *phase.entry;
  const bool root = world_.root();
  if (root) err_ << "bwsurvey: " << phase.label << ": " << phase.collective->describe() << std::endl;
  ConsoleProgress console_progress(err_, entry.name);
  NullProgress silent;
  std::vector<Table> tables;
  std::optional<std::string> error;
  watchdog_.at("measuring");
  try {
    MpiCommunicator world(MPI_COMM_WORLD);
    // Rank 0 writes the matrices into the phase's step of the file; the
    // other ranks only send rows (core/RowGather.hpp).
    H5MatrixSink file_matrices(sink_);
    DiscardingMatrixSink no_matrices;
    MatrixSink& matrices = root ? static_cast<MatrixSink&>(file_matrices) : no_matrices;
    tables = phase.collective->run(world, root ? static_cast<Progress&>(console_progress) : silent, matrices);
  } catch (const std::exception& e) {
    error = error_line(entry, e);
  }
  watchdog_.at(root ? "storing the results" : Watchdog::kWaiting);
  if (root) {
    console_progress.done();
    for (const Table& t : tables) sink_.store(t, &entry);
  }
  if (auto agreed = agree_on_error(MPI_COMM_WORLD, error)) {
    if (root) sink_.outcome().runtime_failure(*agreed);
    return false;
  }
  return true;
}

}  // namespace bws::run
