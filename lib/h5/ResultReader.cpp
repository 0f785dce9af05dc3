#include <algorithm>
#include <charconv>
#include <new>

#include "core/Errors.hpp"
#include "core/FileGuard.hpp"
#include "core/PrintableText.hpp"
#include "h5/ColumnRenames.hpp"
#include "h5/SchemaOneAdapter.hpp"
#include "h5/Attributes.hpp"
#include "h5/Failure.hpp"
#include "h5/Handles.hpp"
#include "h5/Objects.hpp"
#include "h5/Paths.hpp"
#include "h5/ReadChecks.hpp"
#include "h5/ResultFile.hpp"
#include "h5/Strings.hpp"
#include "h5/TableDataset.hpp"

namespace bws::h5 {

struct ResultReader::Impl {
  Handle file;
  std::string path;
  int schema_major = kSchemaMajor;  // 1: shown through SchemaOneAdapter
  ReadBudget budget;                // what all reads of this file may bring into memory

  // The open file of `impl`; a moved-from reader throws.
  static hid_t file_of(const std::unique_ptr<Impl>& impl) {
    if (!impl) throw RuntimeFailure("HDF5: the result file reader was moved from");
    return impl->file.id();
  }
};

namespace {

// A result file is untrusted input: whatever goes wrong while reading it
// (HDF5 cannot decode a structure, a declared size is absurd) is a bad input
// file, exit 2, in one bounded line. Checks the reader makes itself already
// throw UsageError naming the dataset or attribute.
template <typename Read>
auto as_input_error(const std::string& path, Read&& read) -> decltype(read()) {
  try {
    return read();
  } catch (const UsageError&) {
    throw;
  } catch (const RuntimeFailure& e) {
    clear_hdf5_errors();
    throw UsageError(printable_text(e.what(), 600));
  } catch (const std::bad_alloc&) {
    clear_hdf5_errors();
    throw UsageError("'" + printable_text(path, 200) + "': a dataset is too large to read into memory");
  }
}

// The major number of "<major>.<minor>"; -1 when it is not one.
int major_version_of(const std::string& version) {
  int major = -1;
  const char* end = version.data() + version.size();
  const auto [next, error] = std::from_chars(version.data(), end, major);
  if (error != std::errc() || (next != end && *next != '.')) return -1;
  return major;
}

// The major version of a file this bwsurvey reads (this one's, or 1.x
// through SchemaOneAdapter); UsageError otherwise.
int check_schema_version(hid_t file, const std::string& path) {
  const std::string supported = std::to_string(kOldestSchemaMajor) + ".x to " + std::to_string(kSchemaMajor) + ".x";
  if (!has_attribute(file, "schema_version"))
    throw UsageError("'" + printable_text(path, 200) + "' has no schema_version attribute: it is not a bwsurvey result file (this bwsurvey reads schema " +
                     supported + ")");
  const std::string found = read_text_attribute(file, "schema_version");
  const int major = major_version_of(found);
  if (major < kOldestSchemaMajor || major > kSchemaMajor)
    throw UsageError("'" + printable_text(path, 200) + "' has schema version " + printable_text(found, 40) +
                     "; this bwsurvey reads schema " + supported);
  return major;
}

herr_t collect_name(hid_t, const char* name, const H5L_info_t*, void* names) {
  static_cast<std::vector<std::string>*>(names)->emplace_back(name);
  return 0;
}

}  // namespace

ResultReader ResultReader::open(const std::string& path) {
  std::string quoted = "'";  // appended: GCC 12 warns falsely (-Wrestrict) on "'" + a temporary
  quoted += printable_text(path, 200);
  quoted += "'";
  if (path_kind(path) == PathKind::Missing) throw UsageError(quoted + " does not exist");
  // Before HDF5 opens it by name: a FIFO would block the open, a device
  // would be read for ever.
  require_regular_input("result file", path);
  silence_hdf5_error_printing();
  if (H5Fis_hdf5(path.c_str()) <= 0) {  // negative: not readable as a file at all
    clear_hdf5_errors();
    throw UsageError(quoted + " is not an HDF5 file");
  }
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  as_input_error(path, [&] {
    impl->file = checked_handle(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, H5I_INVALID_HID,
                                "open", path);
    impl->schema_major = check_schema_version(impl->file.id(), path);
  });
  return ResultReader(std::move(impl));
}

ResultReader::ResultReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ResultReader::ResultReader(ResultReader&&) noexcept = default;
ResultReader& ResultReader::operator=(ResultReader&&) noexcept = default;
ResultReader::~ResultReader() = default;

bool ResultReader::exists(const std::string& object_path) const {
  const hid_t file = Impl::file_of(impl_);
  return as_input_error(impl_->path, [&] {
    if (object_exists(file, object_path)) return true;
    if (impl_->schema_major != 1) return false;
    const std::string path = absolute_path(object_path).substr(1);
    for (const std::string& stored : table_paths())  // a 1.x file: the upgraded tables exist
      if (stored == path) return true;
    return false;
  });
}

std::vector<std::string> ResultReader::list(const std::string& group_path) const {
  const hid_t file = Impl::file_of(impl_);
  return as_input_error(impl_->path, [&] {
    const std::string path = absolute_path(group_path);
    const Handle group = open_object(file, path);
    if (H5Iget_type(group.id()) != H5I_GROUP) bad_input(file, "'" + path + "'", "is not a group");
    std::vector<std::string> names;
    hsize_t position = 0;
    checked(H5Literate(group.id(), H5_INDEX_NAME, H5_ITER_INC, &position, collect_name, &names), file, "list", path);
    std::sort(names.begin(), names.end());  // byte order, whatever order the file indexes by
    return names;
  });
}

std::string ResultReader::attribute_text(const std::string& object_path, const std::string& name) const {
  const hid_t file = Impl::file_of(impl_);
  return as_input_error(impl_->path, [&] {
    const Handle object = open_object(file, absolute_path(object_path));
    return read_text_attribute(object.id(), name);
  });
}

std::int64_t ResultReader::attribute_int(const std::string& object_path, const std::string& name) const {
  const hid_t file = Impl::file_of(impl_);
  return as_input_error(impl_->path, [&] {
    const Handle object = open_object(file, absolute_path(object_path));
    return read_int_attribute(object.id(), name);
  });
}

double ResultReader::attribute_real(const std::string& object_path, const std::string& name) const {
  const hid_t file = Impl::file_of(impl_);
  return as_input_error(impl_->path, [&] {
    const Handle object = open_object(file, absolute_path(object_path));
    return read_real_attribute(object.id(), name);
  });
}

bool ResultReader::has_attribute(const std::string& object_path, const std::string& name) const {
  const hid_t file = Impl::file_of(impl_);
  return as_input_error(impl_->path, [&] {
    if (!object_exists(file, object_path)) return false;
    const Handle object = open_object(file, absolute_path(object_path));
    return h5::has_attribute(object.id(), name);
  });
}

std::vector<std::string> ResultReader::attribute_names(const std::string& object_path) const {
  const hid_t file = Impl::file_of(impl_);
  return as_input_error(impl_->path, [&] {
    const Handle object = open_object(file, absolute_path(object_path));
    return h5::attribute_names(object.id());
  });
}

namespace {
// Hard links only: a soft or external link of an untrusted file is not
// followed (an external link would open another file).
herr_t collect_hard_link_path(hid_t, const char* name, const H5L_info_t* info, void* names) {
  if (info != nullptr && info->type == H5L_TYPE_HARD) static_cast<std::vector<std::string>*>(names)->emplace_back(name);
  return 0;
}
}  // namespace

std::vector<std::string> ResultReader::table_paths(const std::string& group_path) const {
  const hid_t file = Impl::file_of(impl_);
  return as_input_error(impl_->path, [&] {
    const std::string group = absolute_path(group_path);
    std::vector<std::string> links;
    const Handle start = open_object(file, group);
    checked(H5Lvisit(start.id(), H5_INDEX_NAME, H5_ITER_INC, collect_hard_link_path, &links), file,
            "list the objects of", group);
    std::vector<std::string> tables;
    const std::string prefix = group == "/" ? "" : group.substr(1) + "/";
    for (const std::string& link : links) {
      const std::string path = prefix + link;
      const Handle object = open_object(file, "/" + path);
      if (H5Iget_type(object.id()) != H5I_DATASET) continue;
      const Handle type = checked_handle(H5Dget_type(object.id()), H5Tclose, file, "get the type of", path);
      if (H5Tget_class(type.id()) != H5T_COMPOUND) continue;
      const std::string home = impl_->schema_major == 1 ? schema_one_home(path) : path;
      if (std::find(tables.begin(), tables.end(), home) == tables.end()) tables.push_back(home);
    }
    std::sort(tables.begin(), tables.end());
    return tables;
  });
}

std::string ResultReader::read_text(const std::string& dataset_path) const {
  const hid_t file = Impl::file_of(impl_);
  return as_input_error(impl_->path, [&] {
    const std::string path = absolute_path(dataset_path);
    const std::string label = "dataset '" + path + "'";
    const Handle dataset = open_object(file, path);
    if (H5Iget_type(dataset.id()) != H5I_DATASET) bad_input(file, label, "is a group where a text dataset belongs");
    const Handle type = checked_handle(H5Dget_type(dataset.id()), H5Tclose, file, "get the type of", path);
    const Handle space = checked_handle(H5Dget_space(dataset.id()), H5Sclose, file, "get the shape of", path);
    const hssize_t texts = H5Sget_simple_extent_npoints(space.id());
    // Before reading (each text of a hostile file could be large); what is
    // not text at all read_strings() names as such.
    if (H5Tget_class(type.id()) == H5T_STRING && texts != 1)
      bad_input(file, label, "holds " + std::to_string(texts) + " texts where one belongs");
    const hid_t dataset_id = dataset.id();
    const std::vector<std::string> values = read_strings(
        type.id(), space.id(),
        [dataset_id](hid_t memory_type, void* buffer) {
          return H5Dread(dataset_id, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer);
        },
        file, label, std::min(stored_bytes_bound(file, dataset_id), impl_->budget.read_limit_bytes()));
    if (values.size() != 1)
      bad_input(file, label, "holds " + std::to_string(values.size()) + " texts where one belongs");
    return values.front();
  });
}

Table ResultReader::read_table(const std::string& table_path) const {
  const hid_t file = Impl::file_of(impl_);
  return as_input_error(impl_->path, [&] {
    if (impl_->schema_major == 1) {
      const auto stored = [&](const std::string& path) -> std::optional<Table> {
        if (!object_exists(file, "/" + path)) return std::nullopt;
        return h5::read_table(file, path, &impl_->budget);
      };
      if (auto upgraded = upgraded_schema_one_table(absolute_path(table_path).substr(1), stored))
        return with_current_column_names(std::move(*upgraded));
    }
    return with_current_column_names(h5::read_table(file, table_path, &impl_->budget));
  });
}

}  // namespace bws::h5
