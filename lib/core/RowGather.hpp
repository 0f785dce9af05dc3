#pragma once
// Every rank's row of a matrix, gathered to rank 0 in batches
// (core/BatchedGather) and handed to a MatrixSink there, so rank 0 holds
// one batch of rows, never the matrix, and at most one batch of messages
// is in flight towards it. Collective over `comm`; MPI-free.
#include <cstdint>
#include <span>
#include <string>

#include "core/Communicator.hpp"
#include "core/MatrixSink.hpp"

namespace bws {

// Default bound on the bytes of rows rank 0 receives at once.
inline constexpr std::uint64_t kRowBatchBytes = std::uint64_t{16} << 20;

// my_row: this rank's row (the same length on every rank), the matrix's row
// comm.rank(). On rank 0 the rows go to sink.write_rows(path, ...), in
// order: rank 0's row first (a batch of its own), then batches of
// batch_bytes / row bytes rows; other ranks' `sink` is not used.
// batch_bytes >= one row's bytes is best; a smaller bound still moves one
// row at a time. Throws
// RuntimeFailure on every rank when the ranks' rows differ in length; a
// sink's failure is thrown on rank 0 once every rank has sent its row
// (later batches are not written).
void gather_rows(Communicator& comm, std::span<const float> my_row, MatrixSink& sink, const std::string& path,
                 std::uint64_t batch_bytes = kRowBatchBytes);

}  // namespace bws
