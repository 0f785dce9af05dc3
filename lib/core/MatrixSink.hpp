#pragma once
// Where a collective benchmark puts a matrix too large for one rank's
// memory: the N x N link map at 10,000 nodes is 400 MB per float32 matrix.
// Rank 0 hands it rows in batches as they arrive and never holds the whole
// matrix; the run layer writes them to a chunked, compressed dataset of the
// result file (within the phase's step, so a failed phase leaves nothing).
// Called on world rank 0 only; other ranks get a sink that is never used.
#include <cstdint>
#include <span>
#include <string>

namespace bws {

struct MatrixShape {
  std::string path;  // "/links/send_Bps"
  std::uint64_t rows = 0, columns = 0;
  std::string unit;         // "B/s", "s": stored as the dataset's `unit` attribute
  std::string description;  // one line, stored as its `description` attribute
};

class MatrixSink {
 public:
  virtual ~MatrixSink() = default;
  // Starts a rows x columns float32 matrix (NaN where nothing is written).
  virtual void begin(const MatrixShape& shape) = 0;
  // Rows [first_row, first_row + values.size() / columns) of `path`, row-major.
  virtual void write_rows(const std::string& path, std::uint64_t first_row, std::span<const float> values) = 0;
};

// For runs that keep no matrices (a retest round) and for ranks other than 0.
class DiscardingMatrixSink final : public MatrixSink {
 public:
  void begin(const MatrixShape&) override {}
  void write_rows(const std::string&, std::uint64_t, std::span<const float>) override {}
};

}  // namespace bws
