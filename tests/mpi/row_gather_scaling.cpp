// The batch gather of matrix rows (core/RowGather) at a few hundred ranks:
// each rank's row is a formula of (rank, column); rank 0 writes the rows
// through the result file's matrix datasets with a small batch bound (many
// batches), then reads the file back row by row against the formula and
// checks that no batch it was handed exceeded the bound.
// usage: mpirun -np N row_gather_scaling OUT.h5   (exit 0: every check passed)
#include <hdf5.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/RowGather.hpp"
#include "h5/ResultFile.hpp"
#include "run/MpiCommunicator.hpp"

namespace {

constexpr std::uint64_t kColumns = 24;  // 96 B rows: tiny messages
constexpr std::uint64_t kBatchBytes = 1000;  // 10 rows per batch
constexpr std::uint64_t kBelowOneRowBytes = 8;

// Exact in float32 for any rank below 4096 and column below 1000.
float cell(std::uint64_t row, std::uint64_t column, float matrix) {
  return static_cast<float>(row * 1000 + column) + 0.25F * matrix;
}

// Rank 0's sink: writes into the file, and records the largest batch and
// whether the batches came in row order.
class CheckedFileSink final : public bws::MatrixSink {
 public:
  explicit CheckedFileSink(bws::h5::ResultFile& file) : file_(file) {}
  void begin(const bws::MatrixShape& shape) override {
    file_.begin_matrix(shape);
    next_row_ = 0;
    largest_bytes_ = 0;
  }
  void write_rows(const std::string& path, std::uint64_t first_row, std::span<const float> values) override {
    in_order_ = in_order_ && first_row == next_row_;
    next_row_ = first_row + values.size() / kColumns;
    largest_bytes_ = std::max<std::uint64_t>(largest_bytes_, values.size_bytes());
    file_.write_matrix_rows(path, first_row, values);
  }
  std::uint64_t largest_bytes() const { return largest_bytes_; }
  std::uint64_t rows_seen() const { return next_row_; }
  bool in_order() const { return in_order_; }

 private:
  bws::h5::ResultFile& file_;
  std::uint64_t next_row_ = 0, largest_bytes_ = 0;
  bool in_order_ = true;
};

int failures = 0;
void expect(bool ok, const std::string& what) {
  if (ok) return;
  std::fprintf(stderr, "row_gather_scaling: FAILED: %s\n", what.c_str());
  ++failures;
}

// Every row of the matrix, read alone (a hyperslab), against the formula.
void check_file(const std::string& path, const std::string& matrix, std::uint64_t rows, float which) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t dataset = H5Dopen2(file, matrix.c_str(), H5P_DEFAULT);
  const hid_t space = H5Dget_space(dataset);
  hsize_t dims[2] = {0, 0};
  H5Sget_simple_extent_dims(space, dims, nullptr);
  expect(dims[0] == rows && dims[1] == kColumns, matrix + ": shape");
  const hsize_t count[2] = {1, kColumns};
  const hid_t memory = H5Screate_simple(2, count, nullptr);
  std::vector<float> row(kColumns);
  std::uint64_t wrong_rows = 0;
  for (std::uint64_t r = 0; r < rows && dims[0] == rows; ++r) {
    const hsize_t start[2] = {r, 0};
    H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr);
    if (H5Dread(dataset, H5T_NATIVE_FLOAT, memory, space, H5P_DEFAULT, row.data()) < 0) {
      ++wrong_rows;
      continue;
    }
    for (std::uint64_t c = 0; c < kColumns; ++c)
      if (row[c] != cell(r, c, which)) {
        ++wrong_rows;
        break;
      }
  }
  expect(wrong_rows == 0, matrix + ": " + std::to_string(wrong_rows) + " rows differ from the formula");
  H5Sclose(memory);
  H5Sclose(space);
  H5Dclose(dataset);
  H5Fclose(file);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: row_gather_scaling OUT.h5\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const std::string out = argv[1];
  bws::run::MpiCommunicator world(MPI_COMM_WORLD);
  const auto ranks = static_cast<std::uint64_t>(world.size());
  const bool root = world.rank() == 0;
  std::vector<float> mine(kColumns), second(kColumns);
  for (std::uint64_t c = 0; c < kColumns; ++c) {
    mine[c] = cell(static_cast<std::uint64_t>(world.rank()), c, 1);
    second[c] = cell(static_cast<std::uint64_t>(world.rank()), c, 2);
  }
  bws::DiscardingMatrixSink nothing;
  if (root) {
    bws::h5::ResultFile file = bws::h5::ResultFile::create(out, true);
    CheckedFileSink sink(file);
    sink.begin({"/links/send_Bps", ranks, kColumns, "B/s", "gathered in batches"});
    bws::gather_rows(world, mine, sink, "/links/send_Bps", kBatchBytes);
    expect(sink.in_order() && sink.rows_seen() == ranks, "batches of the first matrix out of order or missing");
    expect(sink.largest_bytes() <= kBatchBytes, "a batch of " + std::to_string(sink.largest_bytes()) + " B");
    expect(sink.largest_bytes() >= kBatchBytes - kColumns * sizeof(float) || ranks * kColumns * 4 < kBatchBytes,
           "batches smaller than the bound allows");
    sink.begin({"/links/recv_Bps", ranks, kColumns, "B/s", "one row at a time"});
    bws::gather_rows(world, second, sink, "/links/recv_Bps", kBelowOneRowBytes);
    expect(sink.in_order() && sink.rows_seen() == ranks, "batches of the second matrix out of order or missing");
    expect(sink.largest_bytes() == kColumns * sizeof(float), "a bound below one row must move one row at a time");
    file.close();
    check_file(out, "/links/send_Bps", ranks, 1);
    check_file(out, "/links/recv_Bps", ranks, 2);
    if (failures == 0) std::printf("row_gather_scaling: %llu rows checked\n", static_cast<unsigned long long>(ranks));
  } else {
    bws::gather_rows(world, mine, nothing, "/links/send_Bps", kBatchBytes);
    bws::gather_rows(world, second, nothing, "/links/recv_Bps", kBelowOneRowBytes);
  }
  int result = failures;
  MPI_Bcast(&result, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return result == 0 ? 0 : 1;
}
