#include "run/ResultSink.hpp"

#include <mpi.h>

#include <chrono>
#include <filesystem>
#include <ostream>
#include <thread>

#include "core/BatchedGather.hpp"
#include "run/MetadataWriter.hpp"
#include "run/MpiCommunicator.hpp"
#include "run/RunText.hpp"

namespace bws::run {

void park() {
  for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
}

ResultSink::ResultSink(const RunWorld& world, std::ostream& out, std::ostream& err, const FaultHooks& hooks)
    : world_(world), out_(out), err_(err), hooks_(hooks) {}

bool ResultSink::holds(const std::string& label) const { return contains(completed_, label); }

void ResultSink::start_step(const std::string& step) {
  write([&](h5::ResultFile& file) {
    mark_step_start(file, step);
    step_unfinished_ = true;
    commit();
    hooks_.on_step_start(step, file);
  });
}

void ResultSink::complete_setup() {
  write([&](h5::ResultFile& file) {
    file.set_attribute("/", "setup_complete", std::int64_t{1});
    step_unfinished_ = false;
    commit();
  });
}

void ResultSink::complete_phase(const std::string& label) {
  write([&](h5::ResultFile& file) {
    completed_.push_back(label);
    file.set_attribute("/", "completed_phases", joined(completed_));
    step_unfinished_ = false;
    commit();
  });
}

// What is written so far reaches the disk and becomes the point a failure
// goes back to (h5/JournalDriver.hpp).
void ResultSink::commit() {
  file_->flush();
  file_->mark();
}

void ResultSink::write(const std::function<void(h5::ResultFile&)>& write) {
  if (file_error_ || !file_) return;
  try {
    write(*file_);
  } catch (const std::exception& e) {
    file_error_ = one_line(e.what());
  }
}

bool ResultSink::survived(const std::string& step) {
  int failed = world_.root() && file_error_ ? 1 : 0;
  MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!failed) return true;
  if (world_.root()) {
    if (claim_ending()) park();
    const std::string message = step + ": " + *file_error_;
    err_ << "bwsurvey: error: " << message << std::endl;
    outcome_.runtime_failure(message);
    end_file(message, false);
    file_.reset();
    lock_.release();
  }
  return false;
}

void ResultSink::gather(const RecordBundle& mine, const CatalogEntry* entry) {
  const std::vector<std::byte> payload = pack_bundle(mine);
  MpiCommunicator world(MPI_COMM_WORLD);
  gather_in_batches(world, payload, kGatherBytesInFlight, [&](int, std::span<const std::byte> bytes) {
    const RecordBundle bundle = unpack_bundle(bytes);
    for (const Table& t : bundle.rank_tables) store(t, entry);
    for (const Table& t : bundle.node_tables) store(t, entry);
    for (const MetadataText& text : bundle.texts) store_text(text);
  });
}

// After a write error nothing more is written (survived() then undoes the
// step); what the reports read is still kept.
void ResultSink::store(const Table& table, const CatalogEntry* entry) {
  write([&](h5::ResultFile& file) {
    file.append(table);
    outcome_.account(table);
  });
  if (entry)
    if (const auto ex = exporters_.find(entry->name); ex != exporters_.end()) ex->second->consume(table);
  kept_.keep(table, entry);
}

void ResultSink::store_text(const MetadataText& text) {
  write([&](h5::ResultFile& file) { write_metadata_text(file, text); });
}

void ResultSink::finish_exporter(const std::string& name, bool complete) {
  const auto ex = exporters_.find(name);
  if (ex == exporters_.end()) return;
  try {
    ex->second->finish(complete);
  } catch (const std::exception& e) {
    outcome_.runtime_failure(name + ": " + e.what());
  }
  exporters_.erase(ex);
}

bool ResultSink::close() {
  if (!file_) return true;
  const bool aborted = !outcome_.runtime_errors().empty();
  write([&](h5::ResultFile& file) {
    if (aborted && !file.has_attribute("/", "abort_reason"))
      file.set_attribute("/", "abort_reason", one_line(outcome_.runtime_errors().front()));
    file.set_attribute("/", "status", std::string(aborted ? "aborted" : "complete"));
    file.set_attribute("/", "finished_utc", utc_now_iso8601());
    file.flush();
    file.close();
  });
  if (!file_error_) {
    lock_.release();
    return true;
  }
  // Back to the last complete step, marked aborted.
  const std::string message = "checks: " + *file_error_;
  err_ << "bwsurvey: error: " << message << std::endl;
  outcome_.runtime_failure(message);
  end_file(message, false);
  lock_.release();
  return false;
}

// The file goes back to its last mark (the end of the last complete step,
// or the start of the one that was cut: h5/JournalDriver.hpp) and says
// aborted and why; a file this run created whose setup never completed is
// removed (it holds no result, and its name must not look like one). The
// file's lock goes once it is closed (kept when it is busy: another thread
// may still write it).
void ResultSink::end_file(const std::string& reason, bool keep_locked) {
  h5::ResultFile* file = live_file_.exchange(nullptr);
  if (!file) return;
  const std::string path = file->path();
  h5::ResultFile::Lock lock = file->try_hold(std::chrono::seconds(10));
  if (!lock.owns_lock()) {
    err_ << "bwsurvey: error: '" << path << "' is busy and is left as it is (--resume completes it)" << std::endl;
    return;
  }
  if (keep_locked) lock.release();
  try {
    file->roll_back();
    if (created_file_ && !setup_done_) {
      file->close_and_remove_created();
      err_ << "bwsurvey: '" << path << "' is removed: its setup never completed, it held no results" << std::endl;
      lock_.release();
      return;
    }
    file->set_attribute("/", "status", std::string("aborted"));
    file->set_attribute("/", "abort_reason", reason);
    file->set_attribute("/", "finished_utc", utc_now_iso8601());
    file->flush();
    file->close();
    out_ << "Results: " << std::filesystem::absolute(path).string() << std::endl;
  } catch (const std::exception& e) {
    try {
      file->roll_back();
      file->close();
    } catch (...) {  // what the disk holds is the last mark, or the failure is said below
    }
    err_ << "bwsurvey: error: '" << path
         << "' keeps every step completed before (status=running; --resume completes it), "
            "but its status could not be written: "
         << one_line(e.what()) << std::endl;
  }
  lock_.release();  // the file is closed: the next run may take it
}

}  // namespace bws::run
