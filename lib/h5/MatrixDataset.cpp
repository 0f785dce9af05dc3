#include "h5/MatrixDataset.hpp"

#include <algorithm>
#include <limits>

#include "core/Errors.hpp"
#include "h5/Attributes.hpp"
#include "h5/Failure.hpp"
#include "h5/Objects.hpp"
#include "h5/Paths.hpp"

namespace bws::h5 {
namespace {

// Shuffle then deflate when this HDF5 has deflate (zlib); else chunked only
// (the file stays readable, just larger).
void set_filters(hid_t file, hid_t dcpl, const std::string& path) {
  if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) <= 0) {
    clear_hdf5_errors();
    return;
  }
  checked(H5Pset_shuffle(dcpl), file, "set the shuffle filter of", path);
  checked(H5Pset_deflate(dcpl, kMatrixDeflateLevel), file, "set the deflate filter of", path);
}

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  throw RuntimeFailure("HDF5: cannot write rows of matrix '" + path + "': " + why);
}

}  // namespace

std::uint64_t matrix_chunk_rows(std::uint64_t rows, std::uint64_t columns) {
  const std::uint64_t row_bytes = std::max<std::uint64_t>(1, columns) * sizeof(float);
  return std::clamp<std::uint64_t>(kMatrixChunkBytes / row_bytes, 1, std::max<std::uint64_t>(1, rows));
}

void create_matrix(hid_t file, const MatrixShape& shape) {
  const std::string path = absolute_path(shape.path);
  if (path == "/") refuse(shape.path, "a matrix needs a dataset path");
  remove_link_if_present(file, path);
  const hsize_t dims[2] = {shape.rows, shape.columns};
  // A chunk dimension must be at least 1 and, where the size is fixed, at
  // most the size: an empty column dimension is made extendible too.
  const hsize_t maxdims[2] = {H5S_UNLIMITED, shape.columns == 0 ? H5S_UNLIMITED : shape.columns};
  const hsize_t chunk[2] = {matrix_chunk_rows(shape.rows, shape.columns), std::max<hsize_t>(1, shape.columns)};
  const Handle space = checked_handle(H5Screate_simple(2, dims, maxdims), H5Sclose, file, "make the dataspace of", path);
  const Handle dcpl = checked_handle(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, file, "make the properties of", path);
  checked(H5Pset_chunk(dcpl.id(), 2, chunk), file, "chunk", path);
  set_filters(file, dcpl.id(), path);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  checked(H5Pset_fill_value(dcpl.id(), H5T_NATIVE_FLOAT, &nan), file, "set the fill value of", path);
  const Handle lcpl = intermediate_groups_lcpl(file);
  const Handle dataset = checked_handle(
      H5Dcreate2(file, path.c_str(), H5T_IEEE_F32LE, space.id(), lcpl.id(), dcpl.id(), H5P_DEFAULT), H5Dclose, file,
      "create matrix", path);
  write_attribute(dataset.id(), "unit", shape.unit);
  write_attribute(dataset.id(), "description", shape.description);
}

void write_matrix_rows(hid_t file, const std::string& matrix_path, std::uint64_t first_row,
                       std::span<const float> values) {
  const std::string path = absolute_path(matrix_path);
  if (!object_exists(file, path)) refuse(path, "it was not begun");
  const Handle dataset = open_object(file, path);
  if (H5Iget_type(dataset.id()) != H5I_DATASET) refuse(path, "it is not a dataset");
  const Handle type = checked_handle(H5Dget_type(dataset.id()), H5Tclose, file, "get the type of", path);
  if (H5Tget_class(type.id()) != H5T_FLOAT) refuse(path, "it is not a float dataset");
  const Handle file_space = checked_handle(H5Dget_space(dataset.id()), H5Sclose, file, "get the shape of", path);
  if (H5Sget_simple_extent_ndims(file_space.id()) != 2) refuse(path, "it is not 2-D");
  hsize_t dims[2] = {0, 0};
  checked(H5Sget_simple_extent_dims(file_space.id(), dims, nullptr), file, "get the shape of", path);
  const std::uint64_t columns = dims[1];
  if (values.empty()) return;
  if (columns == 0 || values.size() % columns != 0)
    refuse(path, std::to_string(values.size()) + " values are not whole rows of " + std::to_string(columns));
  const hsize_t rows = values.size() / columns;
  if (first_row > dims[0] || rows > dims[0] - first_row)
    refuse(path, "rows " + std::to_string(first_row) + " to " + std::to_string(first_row + rows - 1) +
                     " run past its " + std::to_string(dims[0]) + " rows");
  const hsize_t start[2] = {first_row, 0};
  const hsize_t count[2] = {rows, columns};
  checked(H5Sselect_hyperslab(file_space.id(), H5S_SELECT_SET, start, nullptr, count, nullptr), file,
          "select rows of", path);
  const Handle memory_space =
      checked_handle(H5Screate_simple(2, count, nullptr), H5Sclose, file, "make a buffer dataspace for", path);
  checked(H5Dwrite(dataset.id(), H5T_NATIVE_FLOAT, memory_space.id(), file_space.id(), H5P_DEFAULT, values.data()),
          file, "write rows to", path);
}

}  // namespace bws::h5
