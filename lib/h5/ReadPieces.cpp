#include "h5/ReadPieces.hpp"

#include <algorithm>
#include <vector>

#include "h5/Failure.hpp"

namespace bws::h5 {

namespace {

// The rows of one storage chunk of `dataset`, or 0 when it is not chunked.
hsize_t chunk_rows(hid_t dataset) {
  const hid_t dcpl = H5Dget_create_plist(dataset);
  if (dcpl < 0) {
    clear_hdf5_errors();
    return 0;
  }
  hsize_t rows = 0;
  if (H5Pget_layout(dcpl) == H5D_CHUNKED) {
    std::vector<hsize_t> dims(H5S_MAX_RANK, 0);
    if (H5Pget_chunk(dcpl, H5S_MAX_RANK, dims.data()) > 0) rows = dims[0];
  }
  H5Pclose(dcpl);
  clear_hdf5_errors();
  return rows;
}

}  // namespace

hsize_t rows_per_piece(hid_t dataset, std::uint64_t row_bytes, hsize_t rows) {
  const hsize_t wanted = std::max<std::uint64_t>(1, kReadPieceBytes / std::max<std::uint64_t>(1, row_bytes));
  const hsize_t chunk = chunk_rows(dataset);
  hsize_t piece = wanted;
  if (chunk > 0) piece = std::max<hsize_t>(1, wanted / chunk) * chunk;
  return std::clamp<hsize_t>(piece, 1, std::max<hsize_t>(1, rows));
}

}  // namespace bws::h5
