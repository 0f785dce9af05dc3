#pragma once
// A thin RAII layer over SQLite's C API, enough for the history archive:
// open or create a database, run SQL, prepared statements with bound
// values, transactions. Every failure throws RuntimeFailure naming the
// database file and SQLite's message (one line).
#include <cstdint>
#include <optional>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace bws::history {

class SqliteStatement;

class SqliteDb {
 public:
  enum class Mode { kReadOnly, kReadWriteCreate };
  // Opens `path`; kReadOnly throws UsageError when the file does not exist
  // ("<what> 'path' does not exist"), so a mistyped archive is never created.
  SqliteDb(const std::string& path, Mode mode, const std::string& what = "archive");
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  void exec(const std::string& sql);  // one or more statements, no results
  SqliteStatement prepare(const std::string& sql);
  std::int64_t last_insert_rowid() const;
  const std::string& path() const { return path_; }
  [[noreturn]] void fail(const std::string& doing) const;  // throws with sqlite3_errmsg

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
