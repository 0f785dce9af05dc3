#pragma once
// How every history command opens the archive, so that no command condemns
// a good archive and none writes into a damaged one
// (docs/design-notes.md, "Integrity and interrupted writes"):
//  - The path must be a regular file (links followed); a directory, a FIFO,
//    a device is refused before SQLite opens anything. `add` may also be
//    given a missing path: it makes the archive there.
//  - A reader opens the file read-write (never creating it) when this user
//    may write the file and its directory: then SQLite rolls back the
//    journal an interrupted `add` left (a "hot journal") on the first read,
//    and the reader sees the archive as it was before that add. A reader
//    that may not write is told exactly that, never that the archive is
//    foreign.
//  - `add` runs PRAGMA quick_check inside its write transaction, before it
//    writes a byte: a damaged archive is refused (exit 2) and left as it is.
// Every refusal is a UsageError naming the archive and what to do.
#include <string>

#include "history/Sqlite.hpp"

namespace bws::history {

// The archive path as an input: a regular file (a missing one too when
// `may_be_missing`: add makes it); its journal, when there is one, a
// regular file. UsageError otherwise, before anything is opened.
void require_archive_path(const std::string& path, bool may_be_missing);

// Opens an archive that holds surveys, for reading: read-write when
// `may_write` (so a hot journal is rolled back), else read-only. Refuses a
// missing or non-regular path, a file that is not SQLite, a damaged one, an
// empty one (no survey was ever added), and an interrupted write that a
// read-only reader cannot roll back. Checks no schema: the commands do.
SqliteDb open_archive_with(const std::string& path, bool may_write);
// open_archive_with(path, whether this user may write the file and its directory).
SqliteDb open_archive_to_read(const std::string& path);

// Opens (or makes, when missing) the archive for `history add`; nothing is
// read or written yet.
SqliteDb open_archive_to_add(const std::string& path);

// Inside add's write transaction, before any write: an archive that holds
// tables must pass PRAGMA quick_check and have this schema version;
// UsageError otherwise (the transaction rolls back, the file is unchanged).
// True when the database is empty (add makes the schema).
bool check_archive_before_add(SqliteDb& db);

// The one-line message for a file SQLite found damaged (SQLITE_CORRUPT) or
// not a database at all (SQLITE_NOTADB), with what to do about it.
std::string damaged_archive_message(const std::string& path, int code, const std::string& sqlite_message);

}  // namespace bws::history
