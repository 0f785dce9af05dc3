#include "run/Watchdog.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <random>

#include "core/SteadyClock.hpp"
#include "run/MpiWorld.hpp"
#include "run/PhaseRendezvous.hpp"

namespace bws::run {
namespace {

// How long rank 0 waits for the other watchdogs' answers, in all; and per
// address of a rank (a stopped process's kernel still accepts the
// connection: the next address is tried after this).
constexpr double kAnswerWaitSeconds = 2.0;
constexpr double kAttemptSeconds = 1.0;
// How often an idle watchdog wakes (ms).
constexpr int kIdleMs = 200;

std::atomic<int> g_wake_fd{-1};
volatile std::sig_atomic_t g_signal = 0;

extern "C" void on_termination_signal(int signal) {
  g_signal = signal;
  const int fd = g_wake_fd.load();
  if (fd >= 0) {
    const char byte = 'S';
    [[maybe_unused]] const ssize_t n = ::write(fd, &byte, 1);
  }
}

std::string seconds_text(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", s);
  return text;
}

const char* signal_name(int signal) {
  switch (signal) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    default: return "a signal";
  }
}

}  // namespace

Watchdog::Watchdog(MPI_Comm world, const std::string& host, std::vector<std::string> hosts, EndJob end_job,
                   double grace_seconds)
    : host_(host), hosts_(std::move(hosts)), end_job_(std::move(end_job)), grace_seconds_(grace_seconds) {
  MPI_Comm_rank(world, &rank_);
  MPI_Comm_size(world, &size_);
  root_host_ = broadcast_text(world, host_);
  // The job's nonce: an answer from another job's listener is not taken.
  unsigned long long nonce = 0;
  if (rank_ == 0) {
    std::random_device seed;
    nonce = (static_cast<unsigned long long>(seed()) << 32) ^ seed();
  }
  MPI_Bcast(&nonce, 1, MPI_UNSIGNED_LONG_LONG, 0, world);
  nonce_ = nonce;
  if (rank_ != 0) listener_ = std::make_unique<PositionListener>();
  const std::string mine = listener_ ? endpoint_text(listener_->endpoint(rank_)) : std::string();
  const std::vector<std::string> texts = gather_texts(world, mine);
  for (int r = 1; r < static_cast<int>(texts.size()); ++r) endpoints_.push_back(parse_endpoint(r, texts[r]));

  if (::pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0) wake_[0] = wake_[1] = -1;
  g_wake_fd.store(wake_[1]);
  struct sigaction action {};
  action.sa_handler = on_termination_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGINT, &action, nullptr);
  thread_ = std::thread([this] { loop(); });
}

Watchdog::~Watchdog() {
  signal(SIGTERM, SIG_DFL);
  signal(SIGINT, SIG_DFL);
  g_wake_fd.store(-1);
  stop_ = true;
  if (wake_[1] >= 0) {
    const char byte = 'Q';
    [[maybe_unused]] const ssize_t n = ::write(wake_[1], &byte, 1);
  }
  if (thread_.joinable()) thread_.join();
  for (int fd : wake_)
    if (fd >= 0) ::close(fd);
}

void Watchdog::arm(const std::string& step, double timeout_seconds) {
  std::lock_guard<std::mutex> lock(mutex_);
  step_ = step;
  timeout_seconds_ = timeout_seconds;
  deadline_ = timeout_seconds > 0 ? steady_seconds() + timeout_seconds : 0;
  position_ = kWaiting;
}

void Watchdog::disarm() {
  std::lock_guard<std::mutex> lock(mutex_);
  last_step_ = step_;
  step_.clear();
  deadline_ = 0;
  position_ = kWaiting;
}

void Watchdog::at(const char* position) {
  std::lock_guard<std::mutex> lock(mutex_);
  position_ = position;
}

void Watchdog::loop() {
  while (!stop_) {
    double deadline = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      deadline = deadline_;
    }
    if (deadline > 0 && rank_ != 0) deadline += grace_seconds_ + kAnswerWaitSeconds;
    int wait_ms = kIdleMs;
    if (deadline > 0) wait_ms = std::max(0, std::min(wait_ms, static_cast<int>((deadline - steady_seconds()) * 1000) + 1));
    // Ranks but 0 answer rank 0's question whenever it comes.
    pollfd fds[2] = {{wake_[0], POLLIN, 0}, {listener_ ? listener_->fd() : -1, POLLIN, 0}};
    ::poll(fds, 2, wait_ms);  // a negative fd is ignored
    char bytes[16];
    while (wake_[0] >= 0 && ::read(wake_[0], bytes, sizeof bytes) > 0) {
    }
    if (listener_ && (fds[1].revents & POLLIN) != 0) {
      std::string position;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        position = position_;
      }
      listener_->answer_pending(answer_line(nonce_, rank_, position));
    }
    if (stop_) return;
    // on_signal() and on_deadline() return only when the main thread is
    // already ending the run: then this thread has nothing more to do.
    if (g_signal != 0) return on_signal(g_signal);
    if (deadline > 0 && steady_seconds() >= deadline) return on_deadline();
  }
}

// Rank 0: which ranks do not answer, and which still do their own work.
std::string Watchdog::where_ranks_are(double timeout_seconds) {
  std::map<int, std::string> answers;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    answers[0] = position_;
  }
  for (auto& [rank, position] :
       ask_positions(endpoints_, nonce_, kAnswerWaitSeconds, kAttemptSeconds, max_open_sockets()))
    answers[rank] = std::move(position);
  const std::string limit = "within --phase-timeout " + seconds_text(timeout_seconds) + " s";
  std::vector<int> silent;
  std::map<std::string, std::vector<int>> busy;  // position -> ranks
  for (int r = 0; r < size_; ++r) {
    const auto it = answers.find(r);
    if (it == answers.end())
      silent.push_back(r);
    else if (it->second != kWaiting)
      busy[it->second].push_back(r);
  }
  auto ranks = [&](const std::vector<int>& list) {
    return std::string(list.size() == 1 ? "rank " : "ranks ") + describe_ranks(list, hosts_);
  };
  if (!silent.empty())
    return ranks(silent) + " did not reach the end of the phase " + limit + " (" +
           (silent.size() == 1 ? "it does" : "they do") + " not answer: stopped, hung or dead)";
  std::string text;
  for (const auto& [position, list] : busy)
    text += (text.empty() ? "" : "; ") + ranks(list) + " did not finish " + position + " " + limit;
  if (text.empty()) text = "the step did not end " + limit + " (every rank waits for another)";
  return text;
}

void Watchdog::on_deadline() {
  std::string step;
  double timeout = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    step = step_;
    timeout = timeout_seconds_;
  }
  if (rank_ == 0) return end(step + ": " + where_ranks_are(timeout) + "; the job is aborted");
  end("rank " + std::to_string(rank_) + " (" + host_ + "): " + step + ": rank 0 (" + root_host_ +
      ") did not end the step within --phase-timeout " + seconds_text(timeout) + " s and " +
      seconds_text(grace_seconds_ + kAnswerWaitSeconds) + " s more (stopped, hung or dead); the job is aborted");
}

void Watchdog::on_signal(int signal) {
  std::string step, last;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    step = step_;
    last = last_step_;
  }
  const std::string where = !step.empty() ? step + ": cut by " : (last.empty() ? "cut by " : "after " + last + ": cut by ");
  const std::string reason = where + signal_name(signal) + " (the job was cancelled or reached its time limit)";
  if (rank_ == 0) return end(reason);
  // Rank 0 marks the file and ends the job; this rank ends only if it does not.
  const double until = steady_seconds() + grace_seconds_;
  while (steady_seconds() < until) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  end("rank " + std::to_string(rank_) + " (" + host_ + "): " + reason + "; rank 0 (" + root_host_ +
      ") did not end the job within " + seconds_text(grace_seconds_) + " s");
}

void Watchdog::end(const std::string& reason) {
  if (rank_ == 0 && end_job_) {
    end_job_(reason);  // returns only when the main thread already ends the run
    return;
  }
  std::cerr << "bwsurvey: error: " << reason << std::endl;
  MPI_Abort(MPI_COMM_WORLD, 1);  // from this thread: see the header
  std::_Exit(1);
}

}  // namespace bws::run
