#pragma once
// The test hooks (TestHooks.hpp) applied to a run, each at one place: the
// planned runs the hooks name are wrapped in decorators (a rank that fails
// or hangs while preparing, one that stops itself inside its measurement),
// the file fails its writes from a named step on, the job is killed after
// a named phase, a host's Teams are slowed down, a host declares another
// memory size. Without hooks (any build without BWS_TEST_HOOKS) every
// method does nothing.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "h5/ResultFile.hpp"
#include "run/PhasePlan.hpp"
#include "run/RunWorld.hpp"
#include "run/TestHooks.hpp"
#include "topology/Team.hpp"

namespace bws::run {

class FaultHooks {
 public:
  FaultHooks(TestHooks hooks, const RunWorld& world, std::ostream& err)
      : hooks_(std::move(hooks)), world_(world), err_(err) {}

  // Rank 0: a hook in effect is said (and stored in the file's root
  // attributes); a hook variable in a build without hooks is ignored, and
  // that is said too.
  void announce() const;

  // prepare:<rank>, hang:<rank>, stop:<test>:<rank>: this rank's planned
  // runs that a hook names are wrapped.
  void decorate(std::vector<Phase>& phases) const;

  // write-error:<step>: rank 0, once a step's mark is on disk.
  void on_step_start(const std::string& step, h5::ResultFile& file) const;

  // kill-after:<test>: collective; the whole job dies as if cancelled, right
  // after that phase was stored and flushed.
  void after_phase_stored(const std::string& label) const;

  // BWSURVEY_SLOW_HOST: this host's Team runs its kernels slower; with
  // first-pass, only until the retest.
  void slow_down(topo::Team& team) const;
  void before_retest(topo::Team* team) const;

  // BWSURVEY_FAKE_MEMORY: the memory size this host declares (0: its own).
  std::uint64_t declared_memory_bytes() const;

 private:
  TestHooks hooks_;
  const RunWorld& world_;
  std::ostream& err_;  // rank 0's console
};

}  // namespace bws::run
