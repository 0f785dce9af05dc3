#pragma once
// A team of persistent worker threads, each bound to its planned PU with
// hwloc. run(job) calls job(ctx) on every thread and returns when all are
// done; inside a job, ctx.barrier() synchronises the team, and timing happens
// between barriers. After binding each thread reports the CPU it really runs
// on; a mismatch with the plan is recorded as a warning, not an error.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "topology/PinningPlan.hpp"
#include "topology/Topology.hpp"

namespace bws::topo {

class TeamState;  // shared by the workers

class ThreadContext {
 public:
  int index() const { return index_; }
  int count() const { return count_; }
  int cpu() const { return cpu_; }        // planned PU (os index), -1 when unbound
  int numa() const { return numa_; }      // local NUMA node (os index), -1 unknown
  // Waits until every thread of the team has reached it.
  void barrier();
  // [begin, end) of this thread's share of n items, in chunks that are
  // multiples of `granule` items (except the last thread's).
  std::pair<std::size_t, std::size_t> share(std::size_t n, std::size_t granule = 1) const;

 private:
  friend class Team;
  friend class TeamState;
  ThreadContext(TeamState* state, int index, int count, int cpu, int numa)
      : state_(state), index_(index), count_(count), cpu_(cpu), numa_(numa) {}
  TeamState* state_;
  int index_, count_, cpu_, numa_;
  std::chrono::steady_clock::time_point since_{};  // the job's start or the last barrier (Team::set_slowdown)
};

struct ThreadBinding {
  int thread = 0;
  int planned_pu = -1;        // -1: unbound by plan
  int observed_cpu = -1;      // sched_getcpu() after binding
  std::string bound_cpuset;   // hwloc_get_thread_cpubind as a list
  bool verified = false;      // observed CPU is within the planned set
  std::string warning;        // empty when verified
};

class Team {
 public:
  // Starts one thread per slot, binds it (using the real machine's topology,
  // which must be `topology.is_this_system()`), and verifies the binding.
  Team(const Topology& topology, std::vector<ThreadSlot> plan);
  ~Team();
  Team(const Team&) = delete;
  Team& operator=(const Team&) = delete;

  int size() const;
  const std::vector<ThreadSlot>& plan() const { return plan_; }
  const std::vector<ThreadBinding>& bindings() const { return bindings_; }
  bool all_verified() const;

  // Runs job on every thread; rethrows the first exception a thread threw.
  void run(const std::function<void(ThreadContext&)>& job);

  // Test hook (a node made slow on purpose): with a factor f > 1 every
  // thread, on reaching a barrier, first waits (f - 1) times as long as it
  // worked since the job started or it left the last barrier, so every
  // kernel timed between barriers takes f times as long. 1 = off.
  void set_slowdown(double factor);

 private:
  std::vector<ThreadSlot> plan_;
  std::vector<ThreadBinding> bindings_;
  std::unique_ptr<TeamState> state_;
};

}  // namespace bws::topo
