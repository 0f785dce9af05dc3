// The pinned thread team: persistent workers, a job hand-off by generation
// counter, and a generation-counting barrier. All waiting spins briefly and
// then blocks on a futex (SpinWait.hpp), so the team is fast when every
// thread has a core and still makes progress when ranks x threads exceed the
// cores.
//
// Exceptions: run() rethrows the first exception a job threw, after every
// thread has finished the job. A job that throws on one thread while the
// others wait for it in barrier() would hang them; instead the team is marked
// aborted and barrier() throws bws::RuntimeFailure in every other thread (at
// once if waiting, at the next barrier otherwise), so the job unwinds
// everywhere. A job that loops forever without barriers cannot be rescued;
// throwing from a job is meant for errors, not for control flow.
#include "topology/Team.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>

#include "core/Errors.hpp"
#include "topology/SpinWait.hpp"
#include "topology/ThreadBindingCheck.hpp"

namespace bws::topo {

namespace {
constexpr std::size_t kCacheLineBytes = 64;
}

class TeamState {
 public:
  explicit TeamState(int count) : count_(count) {}
  ~TeamState() { stop_and_join(); }

  double slowdown() const { return slowdown_.load(std::memory_order_relaxed); }
  void set_slowdown(double factor) { slowdown_.store(factor, std::memory_order_relaxed); }

  void barrier() {
    if (aborted_.load(std::memory_order_seq_cst)) throw_aborted();
    const std::uint32_t generation = barrier_generation_.load();
    // Loaded after the generation: a thread that sees an abort's new
    // generation also sees the abort (it is stored first) and does not wait.
    if (aborted_.load(std::memory_order_seq_cst)) throw_aborted();
    if (barrier_arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == count_) {
      // Last to arrive: the others wait for the generation, so resetting the
      // count first is safe.
      barrier_arrived_.store(0, std::memory_order_relaxed);
      barrier_generation_.add_and_wake(1);
    } else {
      barrier_generation_.wait_for_change(generation);
    }
    if (aborted_.load(std::memory_order_seq_cst)) throw_aborted();
  }

  // Called by the Team's constructing thread; blocks until every worker is
  // bound, so the bindings are complete when the constructor returns.
  void start(const Topology& topology, const std::vector<ThreadSlot>& plan,
             std::vector<ThreadBinding>& bindings, const std::vector<ThreadContext>& contexts) {
    threads_.reserve(plan.size());
    for (std::size_t i = 0; i < plan.size(); ++i) {
      threads_.emplace_back([this, &topology, &slot = plan[i], &binding = bindings[i], context = contexts[i]] {
        binding = bind_calling_thread(topology, slot, context.index());
        started_.add_and_wake(1);
        work(context);
      });
    }
    for (int started = started_.load(); started < count_;) started = started_.block_until_change(started);
  }

  void run(const std::function<void(ThreadContext&)>& job) {
    if (running_.exchange(true)) {
      throw std::logic_error("Team::run called while the team is running a job (from a job, or concurrently)");
    }
    job_ = &job;
    first_error_ = nullptr;
    aborted_.store(false, std::memory_order_relaxed);
    barrier_arrived_.store(0, std::memory_order_relaxed);
    pending_.reset(count_);
    job_generation_.add_and_wake(1);
    // The caller is not a member and may share a core with one: it blocks
    // instead of spinning.
    for (int pending = pending_.load(); pending != 0;) pending = pending_.block_until_change(pending);
    job_ = nullptr;
    running_.store(false);
    if (first_error_) std::rethrow_exception(std::exchange(first_error_, nullptr));
  }

 private:
  [[noreturn]] static void throw_aborted() {
    throw RuntimeFailure("team barrier abandoned: another thread of the team threw");
  }

  void work(ThreadContext context) {
    std::uint32_t seen_generation = 0;
    for (;;) {
      seen_generation = job_generation_.wait_for_change(seen_generation);
      if (stopping_.load(std::memory_order_acquire)) return;
      try {
        context.since_ = std::chrono::steady_clock::now();
        (*job_)(context);
      } catch (...) {
        record_failure(std::current_exception());
      }
      if (pending_.add(-1) == 1) pending_.wake();
    }
  }

  void record_failure(std::exception_ptr error) {
    {
      std::lock_guard<std::mutex> lock(error_mutex_);
      if (!first_error_) first_error_ = std::move(error);
    }
    aborted_.store(true, std::memory_order_seq_cst);
    barrier_generation_.add_and_wake(1);  // wakes the barrier's waiters
  }

  void stop_and_join() {
    stopping_.store(true, std::memory_order_seq_cst);
    job_generation_.add_and_wake(1);
    for (std::thread& thread : threads_) {
      if (thread.joinable()) thread.join();
    }
  }

  const int count_;
  // Each word that threads spin on has its own cache line (WaitableWord is
  // aligned to one), so a barrier arrival does not disturb the threads
  // polling the job generation.
  alignas(kCacheLineBytes) std::atomic<int> barrier_arrived_{0};
  WaitableWord<std::uint32_t> barrier_generation_;
  WaitableWord<std::uint32_t> job_generation_;
  WaitableWord<int> pending_;  // threads still in the job
  WaitableWord<int> started_;  // threads bound and ready
  alignas(kCacheLineBytes) std::atomic<bool> aborted_{false};
  std::atomic<bool> stopping_{false};
  std::atomic<double> slowdown_{1.0};
  std::atomic<bool> running_{false};
  const std::function<void(ThreadContext&)>* job_ = nullptr;  // published by job_generation_
  std::mutex error_mutex_;
  std::exception_ptr first_error_;
  std::vector<std::thread> threads_;
};

void ThreadContext::barrier() {
  const double slowdown = state_->slowdown();
  if (slowdown > 1) {
    const auto worked = std::chrono::steady_clock::now() - since_;
    std::this_thread::sleep_for(std::chrono::duration_cast<std::chrono::nanoseconds>(worked * (slowdown - 1)));
  }
  state_->barrier();
  if (slowdown > 1) since_ = std::chrono::steady_clock::now();
}

void Team::set_slowdown(double factor) { state_->set_slowdown(factor > 1 ? factor : 1.0); }

Team::Team(const Topology& topology, std::vector<ThreadSlot> plan)
    : plan_(std::move(plan)), bindings_(plan_.size()) {
  if (plan_.empty()) throw std::invalid_argument("Team: the plan has no threads");
  if (!topology.is_this_system()) {
    for (const ThreadSlot& slot : plan_) {
      if (slot.pu_os_index >= 0) {
        throw std::invalid_argument("Team: cannot bind threads to PUs of a synthetic or XML topology");
      }
    }
  }
  const int count = static_cast<int>(plan_.size());
  state_ = std::make_unique<TeamState>(count);
  std::vector<ThreadContext> contexts;
  for (int i = 0; i < count; ++i) {
    const ThreadSlot& slot = plan_[static_cast<std::size_t>(i)];
    contexts.push_back(ThreadContext(state_.get(), i, count, slot.pu_os_index, slot.numa_os_index));
  }
  // If a thread cannot be created, state_'s destructor stops and joins the
  // ones already running.
  state_->start(topology, plan_, bindings_, contexts);
}

Team::~Team() = default;

int Team::size() const { return static_cast<int>(plan_.size()); }

bool Team::all_verified() const {
  for (const ThreadBinding& binding : bindings_) {
    if (!binding.verified) return false;
  }
  return true;
}

void Team::run(const std::function<void(ThreadContext&)>& job) { state_->run(job); }

}  // namespace bws::topo
