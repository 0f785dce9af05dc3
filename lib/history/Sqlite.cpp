#include "history/Sqlite.hpp"

#include <sqlite3.h>
#include <sys/stat.h>

#include <utility>

#include "core/Errors.hpp"
#include "core/PrintableText.hpp"
#include "history/ArchiveAccess.hpp"
#include "history/SqliteFaultHook.hpp"

namespace bws::history {
namespace {

int open_flags(SqliteDb::Mode mode) {
  switch (mode) {
    case SqliteDb::Mode::kReadOnly: return SQLITE_OPEN_READONLY;
    case SqliteDb::Mode::kReadWrite: return SQLITE_OPEN_READWRITE;
    case SqliteDb::Mode::kReadWriteCreate: break;
  }
  return SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
}

// A damaged file is the user's to repair (exit 2, with how); anything else
// SQLite reports is a runtime failure its caller may classify by code.
[[noreturn]] void throw_sqlite(const std::string& path, int code, const std::string& message) {
  const int primary = code & 0xff;
  if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB)
    throw UsageError(damaged_archive_message(path, code, message));
  throw SqliteError("archive '" + printable_text(path, 200) + "': " + message, code);
}

}  // namespace

SqliteDb::SqliteDb(const std::string& path, Mode mode, const std::string& what) : path_(path) {
  struct stat st {};
  if (mode != Mode::kReadWriteCreate && ::stat(path.c_str(), &st) != 0)
    throw UsageError(what + " '" + printable_text(path, 200) +
                     "' does not exist; give an archive made by 'bwreport history add'");
  if (sqlite3_open_v2(path.c_str(), &db_, open_flags(mode), sqlite_fault_vfs()) != SQLITE_OK) {
    const std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
    const int code = db_ ? sqlite3_extended_errcode(db_) : SQLITE_NOMEM;
    sqlite3_close(db_);
    db_ = nullptr;
    throw SqliteError(what + " '" + printable_text(path, 200) + "': cannot open: " + message, code);
  }
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, 30000);  // another add may hold the write lock for a while
}

SqliteDb::~SqliteDb() { sqlite3_close(db_); }

SqliteDb::SqliteDb(SqliteDb&& other) noexcept : db_(std::exchange(other.db_, nullptr)), path_(std::move(other.path_)) {}

void SqliteDb::fail(const std::string& doing) const {
  throw_sqlite(path_, sqlite3_extended_errcode(db_), doing + ": " + sqlite3_errmsg(db_));
}

void SqliteDb::exec(const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    const std::string text = message ? message : "unknown error";
    sqlite3_free(message);
    throw_sqlite(path_, sqlite3_extended_errcode(db_), text);
  }
}

SqliteStatement SqliteDb::prepare(const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) fail("prepare");
  return SqliteStatement(*this, stmt);
}

std::int64_t SqliteDb::last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }

SqliteStatement::~SqliteStatement() { sqlite3_finalize(stmt_); }

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : db_(other.db_), stmt_(std::exchange(other.stmt_, nullptr)) {}

SqliteStatement& SqliteStatement::bind(int index, double value) {
  if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK) db_->fail("bind");
  return *this;
}
SqliteStatement& SqliteStatement::bind(int index, std::int64_t value) {
  if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) db_->fail("bind");
  return *this;
}
SqliteStatement& SqliteStatement::bind(int index, const std::string& value) {
  if (sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT) != SQLITE_OK)
    db_->fail("bind");
  return *this;
}
SqliteStatement& SqliteStatement::bind_null(int index) {
  if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) db_->fail("bind");
  return *this;
}

bool SqliteStatement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  db_->fail("step");
}

void SqliteStatement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

bool SqliteStatement::is_null(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }
double SqliteStatement::column_double(int column) const { return sqlite3_column_double(stmt_, column); }
std::int64_t SqliteStatement::column_int64(int column) const { return sqlite3_column_int64(stmt_, column); }
std::string SqliteStatement::column_text(int column) const {
  const auto* text = sqlite3_column_text(stmt_, column);
  return text ? std::string(reinterpret_cast<const char*>(text),
                            static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)))
              : std::string();
}
std::optional<double> SqliteStatement::column_optional_double(int column) const {
  if (is_null(column)) return std::nullopt;
  return column_double(column);
}

SqliteTransaction::SqliteTransaction(SqliteDb& db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }

SqliteTransaction::~SqliteTransaction() {
  if (done_) return;
  try {
    db_.exec("ROLLBACK");
  } catch (...) {  // a destructor never throws; the archive keeps its last committed state
  }
}

void SqliteTransaction::commit() {
  db_.exec("COMMIT");
  done_ = true;
}

}  // namespace bws::history
