#include "h5/SamplesDataset.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "h5/Failure.hpp"
#include "h5/Handles.hpp"
#include "h5/Objects.hpp"
#include "h5/ReadPieces.hpp"

namespace bws::h5 {

namespace {

using Extent = std::array<hsize_t, 2>;
constexpr double kPadding = std::numeric_limits<double>::quiet_NaN();
constexpr std::size_t kChunkValues = 8192;        // 64 KiB of doubles per chunk
constexpr std::size_t kBlockValues = 512 * 1024;  // 4 MiB write buffer

Handle create_samples_dataset(hid_t file, const std::string& path, std::size_t initial_width) {
  const Extent empty{0, 0};
  const Extent unlimited{H5S_UNLIMITED, H5S_UNLIMITED};
  Handle space = checked_handle(H5Screate_simple(2, empty.data(), unlimited.data()), H5Sclose, file,
                                "make the dataspace of", path);
  // Chunks as wide as the first batch (NTIMES is the same for a whole
  // phase), as many rows as make ~64 KiB.
  const hsize_t chunk_columns = std::clamp<std::size_t>(initial_width, 1, 1024);
  const Extent chunk{std::max<hsize_t>(1, kChunkValues / chunk_columns), chunk_columns};
  Handle dcpl = checked_handle(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, file, "make the properties of", path);
  checked(H5Pset_chunk(dcpl.id(), 2, chunk.data()), file, "chunk", path);
  checked(H5Pset_fill_value(dcpl.id(), H5T_NATIVE_DOUBLE, &kPadding), file, "set the NaN fill value of", path);
  const Handle lcpl = intermediate_groups_lcpl(file);
  return checked_handle(
      H5Dcreate2(file, path.c_str(), H5T_IEEE_F64LE, space.id(), lcpl.id(), dcpl.id(), H5P_DEFAULT), H5Dclose,
      file, "create samples dataset", path);
}

Extent extent_of(hid_t file, hid_t dataset, const std::string& path) {
  Handle space = checked_handle(H5Dget_space(dataset), H5Sclose, file, "get the shape of", path);
  if (H5Sget_simple_extent_ndims(space.id()) != 2) fail(file, "use as a 2-D samples dataset", path);
  Extent extent{};
  checked(H5Sget_simple_extent_dims(space.id(), extent.data(), nullptr), file, "get the shape of", path);
  return extent;
}

// Writes `values` (rows x width, row-major) at row `first_row`, column 0.
void write_block(hid_t file, hid_t dataset, const std::string& path, hsize_t first_row, hsize_t rows, hsize_t width,
                 const std::vector<double>& values) {
  Handle file_space = checked_handle(H5Dget_space(dataset), H5Sclose, file, "get the shape of", path);
  const Extent start{first_row, 0};
  const Extent count{rows, width};
  checked(H5Sselect_hyperslab(file_space.id(), H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr), file,
          "select rows of", path);
  Handle memory_space = checked_handle(H5Screate_simple(2, count.data(), nullptr), H5Sclose, file,
                                       "make a buffer dataspace for", path);
  checked(H5Dwrite(dataset, H5T_NATIVE_DOUBLE, memory_space.id(), file_space.id(), H5P_DEFAULT, values.data()),
          file, "write samples to", path);
}

// Rows [first_row, first_row + rows) of all `width` columns into `values`.
void read_block(hid_t file, hid_t dataset, const std::string& path, hsize_t first_row, hsize_t rows, hsize_t width,
                std::vector<double>& values) {
  Handle file_space = checked_handle(H5Dget_space(dataset), H5Sclose, file, "get the shape of", path);
  const Extent start{first_row, 0};
  const Extent shape{rows, width};
  checked(H5Sselect_hyperslab(file_space.id(), H5S_SELECT_SET, start.data(), nullptr, shape.data(), nullptr), file,
          "select rows of", path);
  Handle memory_space =
      checked_handle(H5Screate_simple(2, shape.data(), nullptr), H5Sclose, file, "make a buffer dataspace for", path);
  values.resize(rows * width);
  checked(H5Dread(dataset, H5T_NATIVE_DOUBLE, memory_space.id(), file_space.id(), H5P_DEFAULT, values.data()), file,
          "read samples from", path);
}

}  // namespace

void append_samples(hid_t file, const std::string& path, const Table& table, hsize_t first_row) {
  const hsize_t rows = table.rows();
  const hsize_t needed_width = table.max_samples();
  Handle dataset = object_exists(file, path) ? open_object(file, path)
                                             : create_samples_dataset(file, path, needed_width);
  const Extent old_extent = extent_of(file, dataset.id(), path);
  const Extent new_extent{std::max(old_extent[0], first_row + rows), std::max(old_extent[1], needed_width)};
  if (new_extent != old_extent)
    checked(H5Dset_extent(dataset.id(), new_extent.data()), file, "extend samples dataset", path);

  // Only this batch's width is written (its short rows NaN-padded): the
  // cells right of it, in a dataset widened earlier, hold the NaN fill value.
  const hsize_t width = needed_width;
  if (rows == 0 || width == 0) return;
  const hsize_t rows_per_block = std::max<hsize_t>(1, kBlockValues / width);
  std::vector<double> block;
  for (hsize_t begin = 0; begin < rows; begin += rows_per_block) {
    const hsize_t count = std::min(rows_per_block, rows - begin);
    block.assign(count * width, kPadding);
    for (hsize_t r = 0; r < count; ++r) {
      const std::vector<double>& samples = table.samples(begin + r);
      std::copy(samples.begin(), samples.end(), block.begin() + static_cast<std::ptrdiff_t>(r * width));
    }
    write_block(file, dataset.id(), path, first_row + begin, count, width, block);
  }
}

std::vector<std::vector<double>> read_samples(hid_t file, const std::string& path, hsize_t first_row, hsize_t count,
                                              ReadMeter* meter) {
  std::vector<std::vector<double>> samples(count);
  Handle dataset = open_object(file, path);
  const Extent extent = extent_of(file, dataset.id(), path);
  const hsize_t width = extent[1];
  if (first_row >= extent[0] || width == 0) return samples;
  const hsize_t stored_rows = std::min(count, extent[0] - first_row);
  const hsize_t piece = rows_per_piece(dataset.id(), width * sizeof(double), stored_rows);
  std::vector<double> values;
  for (hsize_t done = 0; done < stored_rows; done += piece) {
    const hsize_t rows = std::min(piece, stored_rows - done);
    read_block(file, dataset.id(), path, first_row + done, rows, width, values);
    std::uint64_t bytes = 0;
    for (hsize_t r = 0; r < rows; ++r) {
      const auto row = values.begin() + static_cast<std::ptrdiff_t>(r * width);
      auto end = row + static_cast<std::ptrdiff_t>(width);
      while (end != row && std::isnan(*(end - 1))) --end;
      samples[done + r].assign(row, end);
      bytes += sizeof(std::vector<double>) + samples[done + r].capacity() * sizeof(double);
    }
    if (meter != nullptr) meter->add(bytes);
  }
  return samples;
}

}  // namespace bws::h5
