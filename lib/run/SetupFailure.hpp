#pragma once
// Errors before the measurements start (options, --config and --resume
// files, planning, the result file), agreed by every rank: whatever one rank
// throws during setup - a UsageError, an HDF5 error, std::bad_alloc - is
// caught there and handed to all ranks in a collective, so no rank is left
// waiting in a broadcast for one that gave up. Every rank then ends with the
// same exit code, and rank 0 prints the one line.
#include <mpi.h>

#include <functional>
#include <optional>
#include <string>

namespace bws::run {

struct SetupFailure {
  int exit_code = 0;     // kExitUsage for a UsageError, kExitFailure for anything else
  std::string message;   // one line
};

// Runs `step` and returns what it threw, if anything: a UsageError is exit 2
// with its message; any other exception is exit 1, its message prefixed
// with `who` ("rank 1 (node7)") when that is not empty. Newlines in a
// message become spaces.
std::optional<SetupFailure> failure_of(const std::function<void()>& step, const std::string& who = "");

// Collective over `comm`: every rank gets the failure of the lowest failing
// rank, or nothing when no rank failed.
std::optional<SetupFailure> agree_on_failure(MPI_Comm comm, const std::optional<SetupFailure>& mine);

}  // namespace bws::run
