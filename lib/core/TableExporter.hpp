#pragma once
// A reporter that writes a benchmark's records in another tool's format
// while rank 0 stores them (Google Benchmark's split: measuring and
// reporting read the same records). consume() sees every table of its
// benchmark once, as it arrives; finish() completes the output. Rank 0's
// memory does not grow with the ranks: nothing is kept between calls.
//
// An exporter is made at planning time, where it only checks its options
// (a UsageError, nothing created); start() creates its output when the run
// starts, after every check and once the result file is open, so a refused
// run leaves no side file. A resumed survey appends (SideFile.hpp).
#include "core/Table.hpp"

namespace bws {

// How the run that starts an exporter began.
enum class ExportStart {
  Fresh,   // a new survey: the output is created (replaced with --force)
  Resume,  // --resume: the output keeps what earlier runs finished and grows
};

class TableExporter {
 public:
  virtual ~TableExporter() = default;
  // Creates or reopens the output (a RuntimeFailure when it cannot).
  virtual void start(ExportStart how) = 0;
  virtual void consume(const Table& table) = 0;
  // The phase ended: `complete` when all its records were stored (a phase
  // cut short keeps its lines apart, so a resume does not repeat them).
  virtual void finish(bool complete) = 0;
};

}  // namespace bws
