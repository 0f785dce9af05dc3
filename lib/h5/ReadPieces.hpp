#pragma once
// Bulk datasets (tables, samples) are read a piece at a time, never whole:
// memory grows with what is really decoded, not with what a file declares,
// and a filtered (compressed) dataset is decoded once per chunk.
#include <hdf5.h>

#include <cstdint>

namespace bws::h5 {

// About this many decoded bytes per piece.
inline constexpr std::uint64_t kReadPieceBytes = std::uint64_t{8} << 20;

// The rows (first dimension) one piece of a read of `dataset` covers, rows
// of `row_bytes` in memory: a whole number of its storage chunks' rows
// (at least one chunk: a piece never cuts a chunk, which would then be
// decoded twice), about kReadPieceBytes, never more than `rows`, at least 1.
hsize_t rows_per_piece(hid_t dataset, std::uint64_t row_bytes, hsize_t rows);

}  // namespace bws::h5
