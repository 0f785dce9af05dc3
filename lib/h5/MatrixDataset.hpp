#pragma once
// A large float32 matrix (the N x N link map) as a 2-D dataset written row
// batch by row batch: chunks of whole rows (about 1 MiB), shuffle and
// deflate, NaN where no row was written. Its first dimension is extendible
// (never extended): that makes it an appendable dataset in the sense of
// DatasetEdits.hpp, so the step marks of --resume record its rows and a
// resume drops a matrix its cut phase made, exactly as it drops that
// phase's table rows.
#include <hdf5.h>

#include <cstdint>
#include <span>
#include <string>

#include "core/MatrixSink.hpp"

namespace bws::h5 {

inline constexpr std::uint64_t kMatrixChunkBytes = std::uint64_t{1} << 20;
inline constexpr unsigned kMatrixDeflateLevel = 4;

// Rows per chunk for rows of `columns` floats: ~kMatrixChunkBytes, at
// least 1, at most `rows` (at least 1).
std::uint64_t matrix_chunk_rows(std::uint64_t rows, std::uint64_t columns);

// Makes shape.path (groups on the way), replacing any object there: a
// matrix is written whole within its phase, so one found at begin() is
// from an attempt of that phase that did not complete. Attributes `unit`
// and `description`.
void create_matrix(hid_t file, const MatrixShape& shape);

// Rows [first_row, first_row + values.size() / columns) of the matrix at
// `path`. RuntimeFailure when `path` is not a 2-D float matrix, `values`
// is not whole rows, or the rows run past the matrix.
void write_matrix_rows(hid_t file, const std::string& path, std::uint64_t first_row, std::span<const float> values);

}  // namespace bws::h5
