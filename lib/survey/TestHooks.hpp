#pragma once
// Hooks the test suite sets through the environment to provoke what it must
// check (recorded in /provenance with every other BWSURVEY_* variable):
//   BWSURVEY_INJECT_FAULT=ITEM[,ITEM...] with ITEM one of
//     prepare:<rank>     that rank fails cleanly while preparing a phase
//     hang:<rank>        that rank stops in a node-local phase and never comes back
//     kill-after:<test>  every rank is killed (SIGKILL) once that phase is stored
//   BWSURVEY_SLOW_HOST=<host>:<factor>  the Teams on that host run every
//     kernel <factor> times as long (Team::set_slowdown): a slow node.
#include <string>

namespace bws::survey {

struct TestHooks {
  int fail_prepare_rank = -1;
  int hang_rank = -1;
  std::string kill_after_phase;
  std::string slow_host;
  double slow_factor = 1.0;
};

// Pure: parses the two variables' values (nullptr: not set). Unknown or
// malformed items are ignored (a test hook never stops a real run).
TestHooks parse_test_hooks(const char* inject_fault, const char* slow_host);
// From the environment.
TestHooks read_test_hooks();

}  // namespace bws::survey
