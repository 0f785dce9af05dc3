#pragma once
// The watchdog of a rank: a thread that ends the job when a step overruns
// --phase-timeout, or when SIGTERM or SIGINT arrives (Slurm's time limit,
// scancel, Ctrl-C; mpirun forwards them to every rank), wherever the main
// thread is blocked: a node barrier, the gather, a collective benchmark's
// own MPI calls.
//
// Rank 0's watchdog, when the deadline passes, asks every other rank's
// watchdog where its main thread is (over TCP, WatchdogChannel.hpp: never
// MPI, so MPI runs at MPI_THREAD_SINGLE, without thread locks) and names the ranks
// that do not answer (stopped, hung or dead) or have not finished their own
// work; then it hands the reason to `end_job`, which marks the file and
// calls MPI_Abort. The other ranks' watchdogs fire a grace period later and
// name rank 0 (in case rank 0 itself stopped).
// On a signal, rank 0 ends the job at once (naming the step that was cut);
// the other ranks leave that to rank 0 and end only after the grace period.
//
// The signal handler only writes a byte to a pipe (async-signal-safe); it
// may run on any thread (worker Teams, MPI's own). The watchdog thread's
// only MPI call is MPI_Abort, which Open MPI hands to its own PMIx/OOB
// threads (docs/design-notes.md, "The watchdog outside MPI").
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "run/WatchdogChannel.hpp"

namespace bws::run {

class Watchdog {
 public:
  // Rank 0: marks the file and ends the job; returns only when the main
  // thread is already ending the run (then the watchdog stops).
  using EndJob = std::function<void(const std::string& reason)>;

  // Collective over `world` (main thread). hosts: every rank's host (rank 0).
  Watchdog(MPI_Comm world, const std::string& host, std::vector<std::string> hosts, EndJob end_job,
           double grace_seconds);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // A step begins: its name (for the messages) and its timeout (<= 0: none).
  void arm(const std::string& step, double timeout_seconds);
  // The step ended on this rank.
  void disarm();
  // What this rank's main thread does now ("preparing", "measuring", ...);
  // kWaiting when it waits for other ranks (never named as the cause).
  void at(const char* position);
  static constexpr const char* kWaiting = "waiting";

 private:
  void loop();
  void on_signal(int signal);
  void on_deadline();
  std::string where_ranks_are(double timeout_seconds);
  // Ends the job; returns (rank 0) only when the main thread already does.
  void end(const std::string& reason);

  int rank_ = 0, size_ = 1;
  std::unique_ptr<PositionListener> listener_;  // ranks but 0: answers rank 0's question
  std::vector<WatchdogEndpoint> endpoints_;     // rank 0: the other ranks' listeners
  std::uint64_t nonce_ = 0;                     // this job's, from rank 0
  std::string host_, root_host_;
  std::vector<std::string> hosts_;
  EndJob end_job_;
  double grace_seconds_;

  std::mutex mutex_;  // guards the step's fields
  std::string step_, last_step_;
  double timeout_seconds_ = 0;
  double deadline_ = 0;  // MPI_Wtime(); 0 = none
  const char* position_ = kWaiting;

  int wake_[2] = {-1, -1};  // the signal handler's pipe
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace bws::run
