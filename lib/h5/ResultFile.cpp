#include "h5/ResultFile.hpp"

#include <fcntl.h>
#include <cerrno>
#include <cstring>

#include <unistd.h>

#include <filesystem>
#include <system_error>

#include "core/Errors.hpp"
#include "core/FileGuard.hpp"
#include "h5/Attributes.hpp"
#include "h5/DatasetEdits.hpp"
#include "h5/Failure.hpp"
#include "h5/Handles.hpp"
#include "h5/JournalDriver.hpp"
#include "h5/MatrixDataset.hpp"
#include "h5/Objects.hpp"
#include "h5/Paths.hpp"
#include "h5/Strings.hpp"
#include "h5/TableDataset.hpp"

namespace bws::h5 {

std::string schema_version() { return std::to_string(kSchemaMajor) + "." + std::to_string(kSchemaMinor); }

struct ResultFile::Impl {
  Handle file;

  // The open file of `impl`; a closed or moved-from ResultFile throws.
  static hid_t file_of(const std::unique_ptr<Impl>& impl, const std::string& path) {
    if (!impl || !impl->file.valid()) throw RuntimeFailure("HDF5: '" + path + "' is already closed");
    return impl->file.id();
  }
};

namespace {

// The checks of --out, made before anything is created so a usage error
// leaves no file behind (and never truncates one): the path is a new name
// or a regular file of ours (FileGuard: never a device, a FIFO, a link),
// in a directory this process may write.
void check_output_path(const std::string& path, bool overwrite) {
  check_output_file(path, OutputRules{"--out", overwrite, {}, OwnFile::Hdf5});
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  const std::string directory = parent.empty() ? "." : parent.string();
  if (::access(directory.c_str(), W_OK) != 0)
    throw UsageError("--out: directory '" + directory + "' is not writable");
  if (path_kind(path, false) == PathKind::Regular) return;  // replaced (--force): create() removes it first
  // access() says yes to root everywhere, also on read-only or pseudo file
  // systems: creating the file is the only true test. It is removed again
  // so a later usage error still leaves nothing behind.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) throw UsageError("--out: cannot create '" + path + "': " + std::strerror(errno));
  ::close(fd);
  ::unlink(path.c_str());
}

// File access through the journal driver, closing the file even when an
// object is still open (rather than leaving it open and unflushed).
Handle journal_fapl(const std::string& path) {
  Handle fapl = checked_handle(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, H5I_INVALID_HID, "make file properties for", path);
  checked(H5Pset_fclose_degree(fapl.id(), H5F_CLOSE_STRONG), H5I_INVALID_HID, "set the close degree of", path);
  use_journal_driver(fapl.id());
  return fapl;
}

Handle open_for_writing(const std::string& path) {
  const Handle fapl = journal_fapl(path);
  return checked_handle(H5Fopen(path.c_str(), H5F_ACC_RDWR, fapl.id()), H5Fclose, H5I_INVALID_HID, "open for writing",
                        path);
}

// The journal driver is fail-stop: HDF5 never sees a failed write; the
// first one is asked for here and thrown.
void throw_if_write_failed(hid_t file, const std::string& path) {
  const std::string failure = journal_failure(file);
  if (!failure.empty()) throw RuntimeFailure("HDF5: cannot write '" + path + "': " + failure);
}

template <typename T>
void set_attribute_on(hid_t file, const std::string& object_path, const std::string& name, const T& value) {
  const Handle object = open_or_create_group(file, absolute_path(object_path));
  write_attribute(object.id(), name, value);
}

}  // namespace

ResultFile ResultFile::create(const std::string& path, bool overwrite) {
  check_output_path(path, overwrite);
  silence_hdf5_error_printing();

  const Handle fapl = journal_fapl(path);
  // The default (oldest) file format: no superblock "file is open" flag that
  // would make a killed run's file unreadable without h5clear, and readable
  // by any HDF5 since 1.8.
  // The old file (checked above: a regular file of ours, --force) goes
  // first and the new one is made exclusively: nothing is ever written
  // through a name that was swapped for a link or a device meanwhile.
  if (path_kind(path, false) == PathKind::Regular && ::unlink(path.c_str()) != 0)
    throw UsageError("--out: cannot replace '" + path + "': " + std::strerror(errno));
  auto impl = std::make_unique<Impl>();
  impl->file = checked_handle(H5Fcreate(path.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, fapl.id()), H5Fclose,
                              H5I_INVALID_HID, "create", path);
  ResultFile result(std::move(impl), path);
  result.created_ = file_identity(path);
  try {
    result.set_attribute("/", "schema_version", schema_version());
    result.set_attribute("/", "status", std::string("running"));
    result.flush();
    result.mark();
  } catch (...) {
    // A file that could not even be begun (a full disk) holds nothing: it goes.
    try {
      result.close();
    } catch (...) {
    }
    ::unlink(path.c_str());
    throw;
  }
  return result;
}

void ResultFile::close_and_remove_created() {
  close();
  if (created_ && file_identity(path_) == created_) ::unlink(path_.c_str());
  created_.reset();
}

ResultFile ResultFile::open_existing(const std::string& path, const std::string& option) {
  require_regular_input(option, path);  // never a FIFO (HDF5's open would wait for a writer) or a device
  silence_hdf5_error_printing();
  if (H5Fis_hdf5(path.c_str()) <= 0) {
    clear_hdf5_errors();
    throw UsageError(option + ": '" + path + "' is not an HDF5 file");
  }
  {
    // The reader's checks (schema version) before anything is written.
    try {
      (void)ResultReader::open(path);
    } catch (const UsageError& e) {
      throw UsageError(option + ": " + e.what());
    }
  }
  auto impl = std::make_unique<Impl>();
  impl->file = open_for_writing(path);
  return ResultFile(std::move(impl), path);
}

ResultFile::ResultFile(std::unique_ptr<Impl> impl, std::string path) : impl_(std::move(impl)), path_(std::move(path)) {}
ResultFile::ResultFile(ResultFile&&) noexcept = default;
ResultFile& ResultFile::operator=(ResultFile&& other) noexcept {
  if (this != &other) {
    try {
      close();
    } catch (...) {  // a failed close of the file being replaced must not escape a noexcept move
    }
    impl_ = std::move(other.impl_);
    path_ = std::move(other.path_);
    created_ = std::move(other.created_);
    mutex_ = std::move(other.mutex_);
  }
  return *this;
}

ResultFile::Lock ResultFile::hold() const { return mutex_ ? Lock(*mutex_) : Lock(); }

ResultFile::Lock ResultFile::try_hold(std::chrono::milliseconds wait) const {
  return mutex_ ? Lock(*mutex_, wait) : Lock();
}

ResultFile::~ResultFile() {
  try {
    close();
  } catch (...) {  // destructors never throw; close() explicitly to see the error
  }
}

void ResultFile::set_attribute(const std::string& object_path, const std::string& name, const std::string& value) {
  const Lock lock = hold();
  set_attribute_on(Impl::file_of(impl_, path_), object_path, name, value);
  throw_if_write_failed(Impl::file_of(impl_, path_), path_);
}

void ResultFile::set_attribute(const std::string& object_path, const std::string& name, std::int64_t value) {
  const Lock lock = hold();
  set_attribute_on(Impl::file_of(impl_, path_), object_path, name, value);
  throw_if_write_failed(Impl::file_of(impl_, path_), path_);
}

void ResultFile::set_attribute(const std::string& object_path, const std::string& name, double value) {
  const Lock lock = hold();
  set_attribute_on(Impl::file_of(impl_, path_), object_path, name, value);
  throw_if_write_failed(Impl::file_of(impl_, path_), path_);
}

void ResultFile::write_text(const std::string& dataset_path, const std::string& text) {
  const Lock lock = hold();
  const hid_t file = Impl::file_of(impl_, path_);
  const std::string path = absolute_path(dataset_path);
  remove_link_if_present(file, path);
  const Handle type = variable_utf8_type();
  const Handle space = checked_handle(H5Screate(H5S_SCALAR), H5Sclose, file, "make the dataspace of", path);
  const Handle lcpl = intermediate_groups_lcpl(file);
  const Handle dataset = checked_handle(
      H5Dcreate2(file, path.c_str(), type.id(), space.id(), lcpl.id(), H5P_DEFAULT, H5P_DEFAULT), H5Dclose, file,
      "create text dataset", path);
  const char* data = text.c_str();
  checked(H5Dwrite(dataset.id(), type.id(), H5S_ALL, H5S_ALL, H5P_DEFAULT, &data), file, "write text to", path);
  throw_if_write_failed(file, path_);
}

void ResultFile::append(const Table& table) {
  const Lock lock = hold();
  append_table(Impl::file_of(impl_, path_), table);
  throw_if_write_failed(Impl::file_of(impl_, path_), path_);
}

void ResultFile::begin_matrix(const MatrixShape& shape) {
  const Lock lock = hold();
  create_matrix(Impl::file_of(impl_, path_), shape);
  throw_if_write_failed(Impl::file_of(impl_, path_), path_);
}

void ResultFile::write_matrix_rows(const std::string& matrix_path, std::uint64_t first_row,
                                   std::span<const float> values) {
  const Lock lock = hold();
  h5::write_matrix_rows(Impl::file_of(impl_, path_), matrix_path, first_row, values);
  throw_if_write_failed(Impl::file_of(impl_, path_), path_);
}

bool ResultFile::exists(const std::string& object_path) const {
  const Lock lock = hold();
  return object_exists(Impl::file_of(impl_, path_), object_path);
}

bool ResultFile::has_attribute(const std::string& object_path, const std::string& name) const {
  const Lock lock = hold();
  const hid_t file = Impl::file_of(impl_, path_);
  if (!object_exists(file, object_path)) return false;
  const Handle object = open_object(file, absolute_path(object_path));
  return h5::has_attribute(object.id(), name);
}

std::string ResultFile::attribute_text(const std::string& object_path, const std::string& name) const {
  const Lock lock = hold();
  const Handle object = open_object(Impl::file_of(impl_, path_), absolute_path(object_path));
  return read_text_attribute(object.id(), name);
}

std::int64_t ResultFile::attribute_int(const std::string& object_path, const std::string& name) const {
  const Lock lock = hold();
  const Handle object = open_object(Impl::file_of(impl_, path_), absolute_path(object_path));
  return read_int_attribute(object.id(), name);
}

Table ResultFile::read_table(const std::string& table_path) const {
  const Lock lock = hold();
  return h5::read_table(Impl::file_of(impl_, path_), table_path);
}

void ResultFile::remove(const std::string& object_path) {
  const Lock lock = hold();
  remove_link_if_present(Impl::file_of(impl_, path_), object_path);
}

std::map<std::string, std::uint64_t> ResultFile::appendable_lengths() const {
  const Lock lock = hold();
  return h5::appendable_lengths(Impl::file_of(impl_, path_));
}

void ResultFile::truncate_appendables(const std::map<std::string, std::uint64_t>& lengths) {
  const Lock lock = hold();
  h5::truncate_appendables(Impl::file_of(impl_, path_), lengths);
}

void ResultFile::copy_file_into(const std::string& source_path, const std::string& group_path) {
  const Lock lock = hold();
  require_regular_input("bwreport merge", source_path);  // HDF5 opens it by name: never a FIFO or a device
  copy_file_into_group(Impl::file_of(impl_, path_), source_path, group_path);
}

void ResultFile::flush() {
  const Lock lock = hold();
  const hid_t file = Impl::file_of(impl_, path_);
  checked(H5Fflush(file, H5F_SCOPE_GLOBAL), file, "flush", path_);
  throw_if_write_failed(file, path_);
}

void ResultFile::close() {
  const Lock lock = hold();
  if (!impl_) return;
  if (impl_->file.valid()) {
    const std::string failure = journal_failure(impl_->file.id());
    if (failure.empty()) {  // a write failing here leaves the file at its last mark (the driver restores it)
      checked(H5Fflush(impl_->file.id(), H5F_SCOPE_GLOBAL), impl_->file.id(), "flush", path_);
      throw_if_write_failed(impl_->file.id(), path_);
    }
  }
  (void)take_journal_close_failure();  // an earlier file's
  const herr_t status = impl_->file.reset();
  impl_.reset();
  checked(status, H5I_INVALID_HID, "close", path_);
  const std::string failure = take_journal_close_failure();
  if (!failure.empty()) throw RuntimeFailure("HDF5: cannot close '" + path_ + "': " + failure);
}

void ResultFile::mark() {
  const Lock lock = hold();
  const hid_t file = Impl::file_of(impl_, path_);
  try {
    journal_mark(file);
  } catch (const RuntimeFailure& e) {
    throw RuntimeFailure("HDF5: cannot write '" + path_ + "': " + e.what());
  }
}

void ResultFile::roll_back() {
  const Lock lock = hold();
  const hid_t file = Impl::file_of(impl_, path_);
  try {
    journal_roll_back(file);
  } catch (const RuntimeFailure& e) {
    throw RuntimeFailure("'" + path_ + "' cannot be restored: " + e.what());
  }
  // HDF5's caches no longer match the disk: what this close writes stays
  // in the driver's memory.
  (void)take_journal_close_failure();
  checked(impl_->file.reset(), H5I_INVALID_HID, "close", path_);
  const std::string failure = take_journal_close_failure();
  if (!failure.empty()) throw RuntimeFailure("'" + path_ + "' cannot be restored: " + failure);
  impl_->file = open_for_writing(path_);
}

void ResultFile::fail_writes_for_test(int error) {
  const Lock lock = hold();
  journal_fail_writes(Impl::file_of(impl_, path_), error);
}

}  // namespace bws::h5
