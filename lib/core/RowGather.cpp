#include "core/RowGather.hpp"

#include "core/BatchedGather.hpp"
#include "core/Errors.hpp"

namespace bws {
namespace {

// Every rank must bring a row of the same length, or rank 0 would read the
// rows at the wrong places: checked on every rank, so every rank throws the
// same clear failure.
void require_same_columns(Communicator& comm, std::uint64_t columns, const std::string& path) {
  double bounds[2] = {static_cast<double>(columns), -static_cast<double>(columns)};
  comm.all_reduce(std::span<double>(bounds, 2), Reduction::Max);
  if (bounds[0] != -bounds[1])
    throw RuntimeFailure("gathering the rows of '" + path + "': the ranks' rows have " +
                         std::to_string(static_cast<std::uint64_t>(-bounds[1])) + " to " +
                         std::to_string(static_cast<std::uint64_t>(bounds[0])) + " columns");
}

}  // namespace

// Rows of one length: the gather's batches are batch_bytes / row bytes rows
// (one at least, all of them for rows of no columns), back to back, so each
// batch is the matrix's rows [first_rank, ...) as the sink takes them.
void gather_rows(Communicator& comm, std::span<const float> my_row, MatrixSink& sink, const std::string& path,
                 std::uint64_t batch_bytes) {
  require_same_columns(comm, my_row.size(), path);
  gather_batches(comm, std::as_bytes(my_row), batch_bytes, [&](const GatheredBatch& batch) {
    const auto* rows = reinterpret_cast<const float*>(batch.bytes.data());
    sink.write_rows(path, static_cast<std::uint64_t>(batch.first_rank),
                    std::span<const float>(rows, batch.bytes.size() / sizeof(float)));
  });
}

}  // namespace bws
