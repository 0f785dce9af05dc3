#pragma once
// Rank 0's end of a run: it owns the result file, the outcome (what the
// records say: the exit code), the exporters' side files and the tables
// kept for the summary and the flags. Every step of the run is marked in
// the file before it starts and committed when it is stored whole
// (ResumeState.hpp); a failed write undoes the step and ends the run with a
// file that keeps every step done before. The collective methods are
// called on every rank; the others on rank 0 only.
#include <atomic>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/FileLock.hpp"
#include "core/TableExporter.hpp"
#include "h5/ResultFile.hpp"
#include "run/CommandLine.hpp"
#include "run/FaultHooks.hpp"
#include "run/KeptTables.hpp"
#include "report/Outcome.hpp"
#include "run/RecordBundle.hpp"
#include "run/ResumeState.hpp"
#include "run/RunWorld.hpp"
#include "run/SetupFailure.hpp"
#include "run/SurveySettings.hpp"

namespace bws::run {

class ResultSink {
 public:
  using Exporters = std::map<std::string, std::unique_ptr<TableExporter>>;  // per benchmark

  ResultSink(const RunWorld& world, std::ostream& out, std::ostream& err, const FaultHooks& hooks);

  // Collective. Rank 0 locks the result file (a second run on it is
  // refused, naming this one), makes it (or, with --resume, checks the
  // file read-only first and opens it for writing only once every check
  // passed), then the exporters' side files. Every rank gets the agreed
  // failure, or learns the phases the file already holds.
  std::optional<SetupFailure> open(const CommandLine& cl, const SurveySettings& settings, Exporters exporters);

  // Every rank: a phase the resumed file holds whole (not run again).
  bool holds(const std::string& label) const;
  // Every rank: a resume on the ranks the file describes (/nodes and /ranks
  // are not written again).
  bool metadata_stored() const { return metadata_stored_; }
  // Every rank: the file holds this run's setup (or a resumed one).
  void setup_done() { setup_done_ = true; }

  // Rank 0: marks where a step's rows begin, flushes, and makes that the
  // point a failed step goes back to.
  void start_step(const std::string& step);
  void complete_setup();
  void complete_phase(const std::string& label);
  // Rank 0: a write of the file; the first failure is kept (and no later
  // write is tried) until survived() ends the run.
  void write(const std::function<void(h5::ResultFile&)>& write);
  bool step_unfinished() const { return step_unfinished_; }

  // Collective. When rank 0 could not write the file (a full disk, an I/O
  // error), the step's writes are undone, the file keeps every step done
  // before and says aborted and why, and the run ends (false).
  bool survived(const std::string& step);

  // Collective: moves every rank's records to rank 0, which stores them as
  // they arrive (entry: the benchmark; nullptr: the run's metadata).
  void gather(const RecordBundle& mine, const CatalogEntry* entry);
  // Rank 0: stores a table, hands it to the benchmark's exporter, keeps
  // what the summary and the flags read.
  void store(const Table& table, const CatalogEntry* entry);
  // Rank 0: an exporter's output is complete when its phase ends: a phase
  // stored whole is added to its file, one cut short is kept apart.
  void finish_exporter(const std::string& name, bool complete);

  // Rank 0, at the end: the file says complete (or aborted and why) and is
  // closed. False when that could not be written: the file then went back
  // to its last complete step, marked aborted.
  bool close();
  // Rank 0, once the job is ending: the file goes back to its last mark and
  // says aborted and why (keep_locked: from the watchdog, which keeps the
  // file's lock until the process ends). Any thread.
  void end_file(const std::string& reason, bool keep_locked);
  // Rank 0: one thread ends the run; true when another already does.
  bool claim_ending() { return ending_.exchange(true); }
  bool is_open() const { return file_.has_value(); }
  bool write_failed() const { return file_error_.has_value(); }

  report::Outcome& outcome() { return outcome_; }
  const report::Outcome& outcome() const { return outcome_; }
  const KeptTables& kept() const { return kept_; }
  void forget_nodes() { kept_.forget_nodes(); }

 private:
  void commit();
  void undo_open();
  void open_on_root(const CommandLine& cl, int& same_ranks);
  void store_text(const MetadataText& text);

  const RunWorld& world_;
  std::ostream& out_;
  std::ostream& err_;
  const FaultHooks& hooks_;
  SurveySettings settings_;
  FileLock lock_;  // rank 0: one writer of the file, from before it is made or opened to its close
  std::optional<h5::ResultFile> file_;
  report::Outcome outcome_;
  Exporters exporters_;
  KeptTables kept_;
  std::vector<std::string> completed_;  // phases stored whole (every rank: skipped on a resume)
  bool metadata_stored_ = false;
  bool step_unfinished_ = false;           // rank 0: a step was marked and not completed
  bool created_file_ = false;              // rank 0: this run created the file (not --resume)
  bool setup_done_ = false;                // the file holds this run's setup
  std::optional<std::string> file_error_;  // rank 0: the first write of the file that failed
  std::atomic<h5::ResultFile*> live_file_{nullptr};  // rank 0: the open file, for end_file() (any thread)
  std::atomic<bool> ending_{false};
};

// This thread waits for the job's end, which another thread brings.
[[noreturn]] void park();

}  // namespace bws::run
