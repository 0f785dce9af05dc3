#pragma once
// A thin RAII layer over SQLite's C API, enough for the history archive:
// open or create a database, run SQL, prepared statements with bound
// values, transactions. Every failure throws SqliteError (a RuntimeFailure
// with SQLite's extended result code) naming the database file and SQLite's
// message (one line); a damaged file is a UsageError that says how to
// recover it (ArchiveAccess.hpp).
#include <cstdint>
#include <optional>
#include <string>

#include "core/Errors.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace bws::history {

class SqliteStatement;

// A failure SQLite reported: `code` is its extended result code
// (SQLITE_READONLY_ROLLBACK, SQLITE_BUSY, ...), so callers can tell a
// foreign file from a locked or interrupted one.
class SqliteError : public RuntimeFailure {
 public:
  SqliteError(const std::string& message, int code) : RuntimeFailure(message), code_(code) {}
  int code() const { return code_; }
  int primary_code() const { return code_ & 0xff; }

 private:
  int code_;
};

class SqliteDb {
 public:
  // kReadWrite opens an existing file only: a reader that may write rolls
  // back the journal of an interrupted writer (ArchiveAccess.hpp).
  enum class Mode { kReadOnly, kReadWrite, kReadWriteCreate };
  // Opens `path`; kReadOnly and kReadWrite throw UsageError when the file
  // does not exist ("<what> 'path' does not exist"), so a mistyped archive
  // is never created.
  SqliteDb(const std::string& path, Mode mode, const std::string& what = "archive");
  ~SqliteDb();
  SqliteDb(SqliteDb&& other) noexcept;
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;
  SqliteDb& operator=(SqliteDb&&) = delete;

  void exec(const std::string& sql);  // one or more statements, no results
  SqliteStatement prepare(const std::string& sql);
  std::int64_t last_insert_rowid() const;
  const std::string& path() const { return path_; }
  // Throws with sqlite3_errmsg: UsageError for a damaged file (what to do
  // about it), else SqliteError.
  [[noreturn]] void fail(const std::string& doing) const;

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
};

class SqliteStatement {
 public:
  SqliteStatement(SqliteDb& db, sqlite3_stmt* stmt) : db_(&db), stmt_(stmt) {}
  ~SqliteStatement();
  SqliteStatement(SqliteStatement&& other) noexcept;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;
  SqliteStatement& operator=(SqliteStatement&&) = delete;

  // Parameters count from 1, as in SQLite.
  SqliteStatement& bind(int index, double value);
  SqliteStatement& bind(int index, std::int64_t value);
  SqliteStatement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
  SqliteStatement& bind(int index, const std::string& value);
  SqliteStatement& bind_null(int index);
  // Steps once: true while a row is available, false when done.
  bool step();
  // Rewinds for another execution with new bindings.
  void reset();
  // Columns count from 0.
  bool is_null(int column) const;
  double column_double(int column) const;
  std::int64_t column_int64(int column) const;
  std::string column_text(int column) const;
  std::optional<double> column_optional_double(int column) const;

 private:
  SqliteDb* db_;
  sqlite3_stmt* stmt_;
};

// BEGIN IMMEDIATE on construction, ROLLBACK on destruction unless commit()
// was called: an exception mid-way leaves the archive as it was.
class SqliteTransaction {
 public:
  explicit SqliteTransaction(SqliteDb& db);
  ~SqliteTransaction();
  SqliteTransaction(const SqliteTransaction&) = delete;
  SqliteTransaction& operator=(const SqliteTransaction&) = delete;
  void commit();

 private:
  SqliteDb& db_;
  bool done_ = false;
};

}  // namespace bws::history
