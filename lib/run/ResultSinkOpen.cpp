// ResultSink: making the result file, or reopening the one --resume names.
#include <mpi.h>

#include <algorithm>
#include <filesystem>
#include <ostream>

#include "core/Errors.hpp"
#include "core/OptionText.hpp"
#include "run/MetadataWriter.hpp"
#include "run/ResultSink.hpp"
#include "run/RunText.hpp"

namespace bws::run {

std::optional<SetupFailure> ResultSink::open(const CommandLine& cl, const SurveySettings& settings,
                                             Exporters exporters) {
  settings_ = settings;
  exporters_ = std::move(exporters);
  std::optional<SetupFailure> failure;
  int same_ranks = 0;  // a resume of a file whose metadata describes these very ranks
  if (world_.root()) failure = failure_of([&] { open_on_root(cl, same_ranks); });
  if (auto agreed = agree_on_failure(MPI_COMM_WORLD, failure)) return agreed;
  // Every rank skips the same phases.
  completed_ = split_comma_list(broadcast_text(MPI_COMM_WORLD, joined(completed_)));
  completed_.erase(std::remove(completed_.begin(), completed_.end(), std::string()), completed_.end());
  MPI_Bcast(&same_ranks, 1, MPI_INT, 0, MPI_COMM_WORLD);
  metadata_stored_ = same_ranks == 1;
  if (world_.root()) {
    created_file_ = settings_.resume.empty();
    live_file_ = &*file_;
  }
  return std::nullopt;
}

// Rank 0. A refused resume leaves the file's bytes as they were: every check
// runs on the file opened read-only first.
void ResultSink::open_on_root(const CommandLine& cl, int& same_ranks) {
  // Before anything is read, removed or made: a file another run writes is
  // refused, naming that run.
  const bool resuming = !settings_.resume.empty();
  lock_ = FileLock::acquire(resuming ? "--resume" : "--out", resuming ? settings_.resume : settings_.out);
  std::optional<ResumeState> state;
  if (resuming)
    state = inspect_resume(settings_.resume, world_.size, KeptTables::stored_paths(settings_.tests));
  try {
    if (!state) {
      file_.emplace(h5::ResultFile::create(settings_.out, settings_.force));
      std::vector<std::string> tests;
      for (const CatalogEntry* t : settings_.tests) tests.push_back(t->name);
      write_run_attributes(*file_, cl, world_, tests);
    } else {
      file_.emplace(h5::ResultFile::open_existing(settings_.resume, "--resume"));
      prepare_resume(*file_, *state);
      completed_ = state->completed;
      same_ranks = state->setup_complete && state->rank_hosts == world_.rank_hosts ? 1 : 0;
      record_resume(*file_, cl, *state);
      // The records of the phases it holds: what the summary, the flags
      // and the exit code need, as if this run had measured them.
      kept_.keep_stored(*file_, settings_.tests, completed_);
      if (file_->exists("/checks")) outcome_.account(file_->read_table(kChecksPath));
    }
    file_->flush();
    // The exporters' side files are made (a fresh run) or reopened to append.
    for (auto& [name, exporter] : exporters_)
      exporter->start(settings_.resume.empty() ? ExportStart::Fresh : ExportStart::Resume);
  } catch (const UsageError&) {
    undo_open();
    throw;
  } catch (const std::exception& e) {
    undo_open();
    throw RuntimeFailure((settings_.resume.empty() ? "--out: cannot write '" + settings_.out + "': "
                                                   : "--resume: cannot complete '" + settings_.resume + "': ") +
                         one_line(e.what()));
  }
}

// Opening failed half-way: a file this run created goes (it holds no
// result); a resumed file gets back the bytes it had.
void ResultSink::undo_open() {
  if (!file_) {  // nothing was created or opened
    lock_.release();
    return;
  }
  try {
    if (settings_.resume.empty()) {
      file_->close_and_remove_created();
    } else {
      file_->roll_back();
      file_->close();
    }
  } catch (const std::exception& e) {
    err_ << "bwsurvey: error: " << one_line(e.what()) << std::endl;
  }
  file_.reset();
  lock_.release();
}

}  // namespace bws::run
