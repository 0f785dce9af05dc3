#include <algorithm>
#include <string>
#include <vector>

#include "core/Errors.hpp"
#include "h5/Attributes.hpp"
#include "h5/CompoundType.hpp"
#include "h5/Failure.hpp"
#include "h5/Objects.hpp"
#include "h5/Paths.hpp"
#include "h5/SamplesDataset.hpp"
#include "h5/TableDataset.hpp"

namespace bws::h5 {

namespace {

constexpr std::size_t kChunkBytes = 64 * 1024;
constexpr std::size_t kBlockBytes = 4 * 1024 * 1024;  // packed rows buffered per H5Dwrite

std::string samples_target(const Table& table) {
  return table.has_samples() ? absolute_path(table.samples_path()) : std::string();
}

Handle create_table_dataset(hid_t file, const std::string& path, const Table& table, const RowLayout& layout) {
  const hsize_t empty = 0;
  const hsize_t unlimited = H5S_UNLIMITED;
  Handle space = checked_handle(H5Screate_simple(1, &empty, &unlimited), H5Sclose, file, "make the dataspace of", path);
  // ~64 KiB chunks: large enough for fast appends and reads, small enough
  // that a table of a few rows (/nodes on one machine) stays small.
  const hsize_t chunk_rows = std::clamp<std::size_t>(kChunkBytes / layout.row_bytes, 16, 1024);
  Handle dcpl = checked_handle(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, file, "make the properties of", path);
  checked(H5Pset_chunk(dcpl.id(), 1, &chunk_rows), file, "chunk", path);
  const Handle stored_type = stored_row_type(table, layout);
  const Handle lcpl = intermediate_groups_lcpl(file);
  Handle dataset =
      checked_handle(H5Dcreate2(file, path.c_str(), stored_type.id(), space.id(), lcpl.id(), dcpl.id(), H5P_DEFAULT),
                     H5Dclose, file, "create table", path);

  std::vector<std::string> units;
  for (const Column& column : table.columns()) units.push_back(column.unit);
  write_attribute(dataset.id(), kUnitsAttribute, units);
  if (table.has_samples()) write_attribute(dataset.id(), kSamplesAttribute, samples_target(table));
  return dataset;
}

// The stored table must have the same columns (names and kinds, in order)
// and the same samples dataset; string widths may differ (HDF5 converts).
void require_same_schema(hid_t file, hid_t dataset, const std::string& path, const Table& table) {
  Handle type = checked_handle(H5Dget_type(dataset), H5Tclose, file, "get the row type of", path);
  const auto& columns = table.columns();
  auto mismatch = [&](const std::string& why) {
    throw RuntimeFailure("HDF5: cannot append to table '" + path + "': " + why);
  };
  if (H5Tget_class(type.id()) != H5T_COMPOUND) mismatch("it is not a compound dataset");
  const int members = H5Tget_nmembers(type.id());
  if (members != static_cast<int>(columns.size()))
    mismatch("it has " + std::to_string(members) + " columns, the new rows " + std::to_string(columns.size()));
  for (int i = 0; i < members; ++i) {
    char* raw_name = H5Tget_member_name(type.id(), static_cast<unsigned>(i));
    const std::string name = raw_name != nullptr ? raw_name : "";
    H5free_memory(raw_name);
    const Column& column = columns[static_cast<std::size_t>(i)];
    if (name != column.name)
      mismatch("column " + std::to_string(i) + " is '" + name + "', the new rows have '" + column.name + "'");
    if (column_type_of(H5Tget_member_class(type.id(), static_cast<unsigned>(i))) != column.type)
      mismatch("column '" + name + "' is stored with another type than the new rows have");
  }
  const std::string stored_samples =
      has_attribute(dataset, kSamplesAttribute) ? read_text_attribute(dataset, kSamplesAttribute) : std::string();
  if (stored_samples != samples_target(table))
    mismatch("its samples are in '" + stored_samples + "', the new rows' in '" + samples_target(table) + "'");
}

hsize_t length_of(hid_t file, hid_t dataset, const std::string& path) {
  Handle space = checked_handle(H5Dget_space(dataset), H5Sclose, file, "get the shape of", path);
  if (H5Sget_simple_extent_ndims(space.id()) != 1) fail(file, "use as a 1-D table", path);
  hsize_t length = 0;
  checked(H5Sget_simple_extent_dims(space.id(), &length, nullptr), file, "get the shape of", path);
  return length;
}

void write_rows(hid_t file, hid_t dataset, const std::string& path, hid_t memory_type, hsize_t first_row,
                hsize_t rows, const std::vector<std::byte>& packed) {
  Handle file_space = checked_handle(H5Dget_space(dataset), H5Sclose, file, "get the shape of", path);
  checked(H5Sselect_hyperslab(file_space.id(), H5S_SELECT_SET, &first_row, nullptr, &rows, nullptr), file,
          "select rows of", path);
  Handle memory_space =
      checked_handle(H5Screate_simple(1, &rows, nullptr), H5Sclose, file, "make a buffer dataspace for", path);
  checked(H5Dwrite(dataset, memory_type, memory_space.id(), file_space.id(), H5P_DEFAULT, packed.data()), file,
          "write rows to", path);
}

}  // namespace

void append_table(hid_t file, const Table& table) {
  const std::string path = absolute_path(table.path());
  const RowLayout layout = row_layout(table);
  const bool existed = object_exists(file, path);
  Handle dataset = existed ? open_object(file, path) : create_table_dataset(file, path, table, layout);
  if (existed) require_same_schema(file, dataset.id(), path, table);

  const hsize_t first_row = length_of(file, dataset.id(), path);
  const hsize_t rows = table.rows();
  if (rows > 0) {
    const hsize_t new_length = first_row + rows;
    checked(H5Dset_extent(dataset.id(), &new_length), file, "extend table", path);
    const Handle memory_type = memory_row_type(table, layout);
    const std::size_t rows_per_block = std::max<std::size_t>(1, kBlockBytes / layout.row_bytes);
    std::vector<std::byte> packed;
    for (std::size_t begin = 0; begin < rows; begin += rows_per_block) {
      const std::size_t count = std::min<std::size_t>(rows_per_block, rows - begin);
      packed.resize(count * layout.row_bytes);
      pack_rows(table, begin, count, layout, packed.data());
      write_rows(file, dataset.id(), path, memory_type.id(), first_row + begin, count, packed);
    }
  }
  // Also for zero rows: the samples dataset then exists as soon as its table.
  if (table.has_samples()) append_samples(file, samples_target(table), table, first_row);
}

}  // namespace bws::h5
