#pragma once
// The HDF5 result file (layout in docs/hdf5-schema.md). Rank 0 writes it:
// tables are appended as chunked compound datasets that h5py reads as numpy
// structured arrays, each Table's samples as a companion 2-D dataset, and the
// file is flushed after every phase so a killed run leaves a valid file.
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/FileGuard.hpp"
#include "core/MatrixSink.hpp"
#include "core/Table.hpp"

namespace bws::h5 {

// Major.minor; readers reject an unknown major version.
inline constexpr int kSchemaMajor = 3;
inline constexpr int kSchemaMinor = 0;  // 3.0: repetitions are `reps` in every table (STREAM's were `ntimes`)
inline constexpr int kOldestSchemaMajor = 1;  // 1.x files are read through SchemaOneAdapter
std::string schema_version();  // "2.0"

class ResultFile {
 public:
  // Creates `path`. Throws bws::UsageError naming --out when the file exists
  // and overwrite is false, or the directory is missing or not writable;
  // bws::RuntimeFailure on an HDF5 error. Sets schema_version and status=running.
  static ResultFile create(const std::string& path, bool overwrite);
  // Opens an existing result file to add to it (--resume, bwreport scaling).
  // Throws bws::UsageError naming `option` when the file is missing, not
  // HDF5 or of an unknown schema major version.
  static ResultFile open_existing(const std::string& path, const std::string& option);
  ResultFile(ResultFile&&) noexcept;
  ResultFile& operator=(ResultFile&&) noexcept;
  ~ResultFile();

  const std::string& path() const { return path_; }

  // String / integer / real attribute on a group or dataset ("/" for the root).
  // Groups on the way are created; an existing attribute is replaced.
  void set_attribute(const std::string& object_path, const std::string& name, const std::string& value);
  void set_attribute(const std::string& object_path, const std::string& name, std::int64_t value);
  void set_attribute(const std::string& object_path, const std::string& name, double value);

  // A scalar string dataset (the /config INI text, a topology XML).
  void write_text(const std::string& dataset_path, const std::string& text);

  // Appends the rows to the compound dataset at "/" + table.path() (made on
  // first use, with column units as attributes) and the samples to
  // "/" + table.samples_path() (rows x max samples, NaN-padded; widened when
  // a later batch has more samples). Throws if the schema differs from the
  // dataset's.
  void append(const Table& table);

  // A float32 matrix written row batch by row batch (h5/MatrixDataset.hpp):
  // begin_matrix makes it (NaN-filled, replacing what is at the path),
  // write_matrix_rows stores whole rows from `first_row` on.
  void begin_matrix(const MatrixShape& shape);
  void write_matrix_rows(const std::string& matrix_path, std::uint64_t first_row, std::span<const float> values);

  // Reading back what is in the file (--resume): as ResultReader does.
  bool exists(const std::string& object_path) const;
  bool has_attribute(const std::string& object_path, const std::string& name) const;
  std::string attribute_text(const std::string& object_path, const std::string& name) const;
  std::int64_t attribute_int(const std::string& object_path, const std::string& name) const;
  Table read_table(const std::string& table_path) const;

  // Removes the object at the path (and what is below it) if there is one.
  void remove(const std::string& object_path);
  // Where a phase begins and how to go back there: the length of every
  // appendable dataset, and shrinking them to such lengths (datasets made
  // since are removed). See h5/DatasetEdits.hpp.
  std::map<std::string, std::uint64_t> appendable_lengths() const;
  void truncate_appendables(const std::map<std::string, std::uint64_t>& lengths);
  // Copies another result file whole (objects and root attributes) into a new group.
  void copy_file_into(const std::string& source_path, const std::string& group_path);

  void flush();
  void close();
  // Closes a file this object created and removes it, only while it is
  // still that file (device and inode): a file that has taken its name
  // meanwhile, or one that was opened rather than created, stays.
  void close_and_remove_created();

  // Steps that can be undone (h5/JournalDriver.hpp). mark(): the file's
  // bytes now on disk (call after flush()) are what roll_back() restores;
  // throws RuntimeFailure when the disk has no room for the reserve.
  // roll_back(): after any failure (a write error, a timeout, a signal)
  // the file becomes byte for byte what it was at the last mark (or when
  // it was opened) and is opened again, so its status can be written.
  void mark();
  void roll_back();
  // Test hook: every later write fails with errno `error` until roll_back().
  void fail_writes_for_test(int error);

  // Every method holds the file's lock: a second thread (the watchdog)
  // may take it to end the run. HDF5 is not thread-safe; no other HDF5
  // access may run while the lock is held elsewhere. Not owning the lock
  // after `wait`: the file is busy.
  using Lock = std::unique_lock<std::recursive_timed_mutex>;
  Lock try_hold(std::chrono::milliseconds wait) const;

 private:
  struct Impl;
  explicit ResultFile(std::unique_ptr<Impl> impl, std::string path);
  Lock hold() const;
  std::unique_ptr<Impl> impl_;
  std::string path_;
  std::optional<FileIdentity> created_;  // set by create()
  std::unique_ptr<std::recursive_timed_mutex> mutex_ = std::make_unique<std::recursive_timed_mutex>();
};

class ResultReader {
 public:
  // Throws bws::UsageError when the file is missing, not HDF5, or has an
  // unknown schema major version.
  static ResultReader open(const std::string& path);
  ResultReader(ResultReader&&) noexcept;
  ResultReader& operator=(ResultReader&&) noexcept;
  ~ResultReader();

  bool exists(const std::string& object_path) const;
  std::vector<std::string> list(const std::string& group_path) const;  // child names, sorted
  std::string attribute_text(const std::string& object_path, const std::string& name) const;
  std::int64_t attribute_int(const std::string& object_path, const std::string& name) const;
  double attribute_real(const std::string& object_path, const std::string& name) const;
  bool has_attribute(const std::string& object_path, const std::string& name) const;
  std::vector<std::string> attribute_names(const std::string& object_path) const;  // sorted
  std::string read_text(const std::string& dataset_path) const;
  // The paths (without the leading "/") of every table (compound dataset)
  // at or below `group_path`, sorted.
  std::vector<std::string> table_paths(const std::string& group_path = "/") const;
  // Reads a compound table (its path without the leading "/") with its
  // units and, when the table names a samples dataset, its samples
  // (trailing NaN padding removed).
  Table read_table(const std::string& table_path) const;

 private:
  struct Impl;
  explicit ResultReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace bws::h5
