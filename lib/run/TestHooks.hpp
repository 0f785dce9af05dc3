#pragma once
// Hooks the test suite sets through the environment to provoke what it must
// check. They exist only in a test build (cmake -DBWS_TEST_HOOKS=ON, which
// scripts/test-all.sh and the debug preset turn on): in any other build the
// variables are ignored, and bwsurvey says so. In a test build an active
// hook is printed at start, stored in the root attribute `test_hooks`, and
// `bwreport summary` opens with "TEST HOOK ACTIVE". A user's environment
// never changes a result silently. FaultHooks.hpp applies them to a run.
//   BWSURVEY_INJECT_FAULT=ITEM[,ITEM...] with ITEM one of
//     prepare:<rank>     that rank fails cleanly while preparing a phase
//     hang:<rank>        that rank stops in a node-local phase and never comes back
//     kill-after:<test>  every rank is killed (SIGKILL) once that phase is stored
//     write-error:<step> every write of the file fails (EIO) from the start
//                        of that step (a test's name, "setup" or "checks")
//     stop:<test>:<rank> that rank stops itself (SIGSTOP) the first time the
//                        test reports progress: inside its measurement
//   BWSURVEY_SLOW_HOST=<host>:<factor>  the Teams on that host run every
//     kernel <factor> times as long (Team::set_slowdown): a slow node;
//     <host>:<factor>:first-pass slows it only until the retest (a transient).
//   BWSURVEY_FAKE_MEMORY=<host>:<bytes>[,...]  that host's /nodes row
//     declares this memory size (pretend nodes of another hardware class).
//   BWSURVEY_BEFF_CORRUPT=<rank>  (read by lib/beff) corrupts b_eff payloads.
//   BWSURVEY_LINKS_SLOW_PAIR=<a>,<b>,<factor>  (read by lib/links) member a's
//     messages to member b take <factor> times as long.
//   BWSURVEY_FIXED_SPEED=1  no machine probe: every rank plans with the
//     default MachineSpeed, so estimates, and what --time-budget fits, are
//     the same in every run, whatever the machine's load.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bws::run {

struct TestHooks {
  int fail_prepare_rank = -1;
  int hang_rank = -1;
  std::string kill_after_phase;
  std::string write_error_step;
  std::string stop_phase;
  int stop_rank = -1;
  std::string slow_host;
  double slow_factor = 1.0;
  bool slow_first_pass_only = false;  // the slowdown ends before the retest
  std::map<std::string, std::uint64_t> fake_memory_bytes;  // host -> bytes
  bool fixed_speed = false;  // plan with the default MachineSpeed, no probe
};

// The environment variables that are test hooks.
const std::vector<std::string>& test_hook_variables();
// Whether this build reads them.
bool test_hooks_compiled();

// Pure: parses the variables' values (nullptr: not set). Unknown or
// malformed items are ignored (a test hook never stops a real run).
TestHooks parse_test_hooks(const char* inject_fault, const char* slow_host, const char* fake_memory = nullptr);
// From the environment; all empty in a build without test hooks.
TestHooks read_test_hooks();
// "NAME=value" of every hook variable set in the environment.
std::vector<std::string> hook_variables_set();

}  // namespace bws::run
