#include "core/RowGather.hpp"

#include <algorithm>
#include <exception>
#include <vector>

#include "core/Errors.hpp"

namespace bws {
namespace {

// Tags of their own, apart from the benchmarks' (b_eff: 1, 2), the phase
// rendezvous (from 1000 on), the record gather (7101, 7102) and the
// watchdog's (7201, 7202).
constexpr int kAskTag = 7301;
constexpr int kRowTag = 7302;

// Every rank must bring a row of the same length, or a row message would
// be truncated (an MPI error that ends the job) or never matched (a hang):
// checked on every rank, so every rank throws the same clear failure.
void require_same_columns(Communicator& comm, std::uint64_t columns, const std::string& path) {
  double bounds[2] = {static_cast<double>(columns), -static_cast<double>(columns)};
  comm.all_reduce(std::span<double>(bounds, 2), Reduction::Max);
  if (bounds[0] != -bounds[1])
    throw RuntimeFailure("gathering the rows of '" + path + "': the ranks' rows have " +
                         std::to_string(static_cast<std::uint64_t>(-bounds[1])) + " to " +
                         std::to_string(static_cast<std::uint64_t>(bounds[0])) + " columns");
}

}  // namespace

void gather_rows(Communicator& comm, std::span<const float> my_row, MatrixSink& sink, const std::string& path,
                 std::uint64_t batch_bytes) {
  const std::uint64_t columns = my_row.size();
  const std::uint64_t row_bytes = columns * sizeof(float);
  require_same_columns(comm, columns, path);
  if (comm.rank() != 0) {
    std::byte ask{};
    comm.post_receive(&ask, 1, 0, kAskTag);
    comm.wait_all();
    comm.post_send(reinterpret_cast<const std::byte*>(my_row.data()), row_bytes, 0, kRowTag);
    comm.wait_all();
    return;
  }
  const auto ranks = static_cast<std::uint64_t>(comm.size());
  // A bound below one row still moves one row at a time; rows of no
  // columns cost nothing to hold, so they come in one batch.
  const std::uint64_t rows_per_batch = row_bytes == 0 ? ranks : std::max<std::uint64_t>(1, batch_bytes / row_bytes);
  std::vector<float> batch(std::min(rows_per_batch, ranks) * columns);
  const std::byte ask{1};
  // A sink that fails does not stop the gather: every rank is still asked
  // (or it would wait for ever), and the first failure is thrown at the end.
  std::exception_ptr sink_failure;
  for (std::uint64_t first = 0; first < ranks; first += rows_per_batch) {
    const std::uint64_t end = std::min(ranks, first + rows_per_batch);
    for (std::uint64_t r = first; r < end; ++r) {
      float* row = batch.data() + (r - first) * columns;
      if (r == 0) {
        std::copy(my_row.begin(), my_row.end(), row);
        continue;
      }
      comm.post_receive(reinterpret_cast<std::byte*>(row), row_bytes, static_cast<int>(r), kRowTag);
      comm.post_send(&ask, 1, static_cast<int>(r), kAskTag);
    }
    comm.wait_all();
    if (sink_failure) continue;
    try {
      sink.write_rows(path, first, std::span<const float>(batch.data(), (end - first) * columns));
    } catch (...) {
      sink_failure = std::current_exception();
    }
  }
  if (sink_failure) std::rethrow_exception(sink_failure);
}

}  // namespace bws
