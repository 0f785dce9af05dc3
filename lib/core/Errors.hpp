#pragma once
// The error classes and exit codes of DESIGN.md: a usage error is the user's
// to fix (exit 2, one line naming the option), a runtime failure is the
// machine's (exit 1), a failed model check is exit 3.
#include <stdexcept>
#include <string>

namespace bws {

enum ExitCode : int {
  kExitOk = 0,
  kExitFailure = 1,      // a result did not validate, or a runtime error
  kExitUsage = 2,        // bad option, size, file: nothing was measured
  kExitCheckFailed = 3,  // a model or scaling check failed
};

// Bad input: the message names the option and the allowed range.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Something failed while measuring (allocation, a system call, a rank).
class RuntimeFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace bws
