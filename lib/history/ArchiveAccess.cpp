#include "history/ArchiveAccess.hpp"

#include <sqlite3.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "core/Errors.hpp"
#include "core/FileGuard.hpp"
#include "core/PrintableText.hpp"
#include "history/ArchiveStore.hpp"

namespace bws::history {
namespace {

namespace fs = std::filesystem;

// (Appended, not "'" + text: gcc 12 warns falsely (-Wrestrict) on that.)
std::string quoted(const std::string& path) {
  std::string text(1, '\'');
  text += printable_text(path, 200);
  text += '\'';
  return text;
}

// The directory SQLite puts the journal in: the one of the file a link
// names (SQLite resolves links), else the one of the path given.
std::string journal_directory(const std::string& path) {
  char resolved[PATH_MAX];
  const fs::path file = ::realpath(path.c_str(), resolved) ? fs::path(resolved) : fs::path(path);
  return file.has_parent_path() ? file.parent_path().string() : std::string(".");
}

// Whether rolling back a hot journal is possible for this user: the file
// and the journal's directory writable (EROFS, a read-only mount, counts too).
bool may_write_archive(const std::string& path) {
  return ::access(path.c_str(), R_OK | W_OK) == 0 && ::access(journal_directory(path).c_str(), W_OK | X_OK) == 0;
}

bool has_journal(const std::string& path) { return path_kind(path + "-journal", false) != PathKind::Missing; }

// A failure of the first read of an archive, said as what to do.
[[noreturn]] void refuse_unreadable(const std::string& path, const SqliteError& e, bool may_write) {
  const int primary = e.primary_code();
  if (has_journal(path) && (primary == SQLITE_READONLY || primary == SQLITE_CANTOPEN || primary == SQLITE_IOERR))
    throw UsageError("archive " + quoted(path) + " holds a write that was interrupted (its journal " +
                     quoted(path + "-journal") + " is still there), and " +
                     (may_write ? std::string("the journal could not be rolled back (") + e.what() + ")"
                                : std::string("this user may not write the archive or its directory, which rolling "
                                              "the journal back needs")) +
                     "; nothing is lost: run any 'bwreport history' command on it once as a user who may write both "
                     "(it comes back as it was before that write), then read it as before");
  if (primary == SQLITE_BUSY)
    throw RuntimeFailure("archive " + quoted(path) +
                         " is locked by another writer (a 'bwreport history add' still running?) for more than 30 s; "
                         "run this again when it has finished");
  throw RuntimeFailure("archive " + quoted(path) + " cannot be read: " + e.what());
}

// The number of tables, indexes and views: 0 for an empty file. The first
// read, where SQLite rolls back a hot journal (when it may write).
std::int64_t schema_objects(SqliteDb& db, bool may_write) {
  try {
    SqliteStatement q = db.prepare("SELECT count(*) FROM sqlite_master");
    q.step();
    return q.column_int64(0);
  } catch (const SqliteError& e) {
    refuse_unreadable(db.path(), e, may_write);
  }
}

void quick_check(SqliteDb& db) {
  std::vector<std::string> problems;
  SqliteStatement q = db.prepare("PRAGMA quick_check(10)");
  while (q.step()) problems.push_back(q.column_text(0));
  if (problems.size() == 1 && problems[0] == "ok") return;
  std::string found = problems.empty() ? std::string("no answer") : problems[0];
  if (problems.size() > 1) found += " (and " + std::to_string(problems.size() - 1) + " more problems)";
  throw UsageError(damaged_archive_message(db.path(), SQLITE_CORRUPT, "PRAGMA quick_check: " + found));
}

}  // namespace

void require_archive_path(const std::string& path, bool may_be_missing) {
  if (path.empty()) throw UsageError("ARCHIVE is empty; allowed: the path of a history archive");
  const PathKind kind = path_kind(path);
  const std::string allowed =
      may_be_missing ? "a history archive (a regular file) or a path where none exists yet" : "a history archive (a regular file)";
  if (kind == PathKind::Missing) {
    if (!may_be_missing)
      throw UsageError("archive " + quoted(path) + " does not exist; give an archive made by 'bwreport history add'");
    if (path_kind(path, false) == PathKind::SymbolicLink)
      throw UsageError("archive " + quoted(path) + " is a symbolic link to nothing; allowed: " + allowed);
    const fs::path parent = fs::path(path).has_parent_path() ? fs::path(path).parent_path() : fs::path(".");
    if (path_kind(parent.string()) != PathKind::Directory)
      throw UsageError("archive " + quoted(path) + ": its directory does not exist; allowed: a path in an existing directory");
    return;
  }
  if (kind != PathKind::Regular)
    throw UsageError("archive " + quoted(path) + " is " + path_kind_noun(kind) + "; allowed: " + allowed);
  for (const char* suffix : {"-journal", "-wal"}) {
    const PathKind side = path_kind(path + suffix, false);
    if (side != PathKind::Missing && side != PathKind::Regular)
      throw UsageError("archive " + quoted(path) + ": its journal " + quoted(path + suffix) + " is " +
                       path_kind_noun(side) + "; allowed: a regular file (SQLite's journal) or none: remove it");
  }
}

SqliteDb open_archive_with(const std::string& path, bool may_write) {
  require_archive_path(path, false);
  SqliteDb db(path, may_write ? SqliteDb::Mode::kReadWrite : SqliteDb::Mode::kReadOnly);
  if (schema_objects(db, may_write) == 0)
    throw UsageError("archive " + quoted(path) +
                     " holds no survey yet (an empty file: nothing was ever added, or the first 'bwreport history add' "
                     "into it was interrupted); add surveys with 'bwreport history add " + printable_text(path, 200) +
                     " FILE...'");
  return db;
}

SqliteDb open_archive_to_read(const std::string& path) {
  require_archive_path(path, false);  // before realpath() and access() look at it
  return open_archive_with(path, may_write_archive(path));
}

SqliteDb open_archive_to_add(const std::string& path) {
  require_archive_path(path, true);
  if (path_kind(path) == PathKind::Missing) return SqliteDb(path, SqliteDb::Mode::kReadWriteCreate);
  if (!may_write_archive(path))
    throw UsageError("archive " + quoted(path) +
                     " may not be written by this user (the file or its directory is read-only); allowed: an archive "
                     "this user may write");
  return SqliteDb(path, SqliteDb::Mode::kReadWrite);
}

bool check_archive_before_add(SqliteDb& db) {
  if (schema_objects(db, true) == 0) return true;
  quick_check(db);
  require_archive_version(db);
  return false;
}

std::string damaged_archive_message(const std::string& path, int code, const std::string& sqlite_message) {
  const std::string rebuild =
      "rebuild it from the survey files (they are the source of truth) with 'bwreport history add ARCHIVE FILE...' "
      "into another file";
  if ((code & 0xff) == SQLITE_NOTADB)
    return "archive " + quoted(path) + " is not an SQLite database (" + printable_text(sqlite_message, 120) +
           "); it is left as it is; give a history archive made by 'bwreport history add' (if this was one, its first "
           "page is damaged: restore it from a backup, or " + rebuild + ")";
  return "archive " + quoted(path) + " is damaged (" + printable_text(sqlite_message, 160) +
         "); it is left as it is and nothing was written; copy what it holds into a repaired archive with "
         "'sqlite3 ARCHIVE .recover | sqlite3 REPAIRED.db' and use that, restore a backup, or " + rebuild;
}

}  // namespace bws::history
