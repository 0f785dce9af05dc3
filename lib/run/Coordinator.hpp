#pragma once
// The survey's driver: plan on every rank, create the file on rank 0, build
// the pinned Teams, then one phase per selected benchmark (every rank runs,
// records go to rank 0 in batches and are appended and flushed), then the
// summary and the exit code. Collective over MPI_COMM_WORLD. A short loop;
// the work is in its collaborators (docs/design-notes.md, "The run as a
// loop over phases").
#include <iosfwd>

#include "run/CommandLine.hpp"

namespace bws::run {

struct ConsoleStreams {
  std::ostream& out;   // summary (rank 0)
  std::ostream& err;   // progress and errors (rank 0)
};

// Returns the process exit code (the same on every rank).
int run_survey(const CommandLine& command_line, ConsoleStreams console);

}  // namespace bws::run
