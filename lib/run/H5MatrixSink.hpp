#pragma once
// Rank 0's MatrixSink during a phase: the rows go straight into the result
// file (h5/MatrixDataset.hpp) through ResultSink::write, so they belong to
// the phase's step: committed with it, rolled back with it when the phase
// fails, and a write error is kept and ends the run as any other write of
// the file does (ResultSink::survived).
#include "core/MatrixSink.hpp"
#include "run/ResultSink.hpp"

namespace bws::run {

class H5MatrixSink final : public MatrixSink {
 public:
  explicit H5MatrixSink(ResultSink& results) : results_(results) {}
  void begin(const MatrixShape& shape) override;
  void write_rows(const std::string& path, std::uint64_t first_row, std::span<const float> values) override;

 private:
  ResultSink& results_;
};

}  // namespace bws::run
