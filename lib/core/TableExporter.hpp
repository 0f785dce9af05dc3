#pragma once
// A reporter that writes a benchmark's records in another tool's format
// while rank 0 stores them (Google Benchmark's split: measuring and
// reporting read the same records). consume() sees every table of its
// benchmark once, as it arrives; finish() completes the output. Rank 0's
// memory does not grow with the ranks: nothing is kept between calls.
#include "core/Table.hpp"

namespace bws {

class TableExporter {
 public:
  virtual ~TableExporter() = default;
  virtual void consume(const Table& table) = 0;
  virtual void finish() = 0;
};

}  // namespace bws
