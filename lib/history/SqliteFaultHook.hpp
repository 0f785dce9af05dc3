#pragma once
// A test hook (compiled only with -DBWS_TEST_HOOKS=ON) that kills the
// process at a chosen instant of an archive write, to prove that a kill
// at any instant of `history add` leaves the old or the new archive:
//   BWSURVEY_HISTORY_EXIT_AT=N  the process _exit()s (code
//     kSqliteFaultExitCode) just before the Nth operation of SQLite that
//     changes a file: creating, writing, truncating, syncing or deleting
//     the archive or its journal, counted over the whole process.
// Without the variable, or in a build without test hooks, SQLite's own
// file layer is used unchanged.

namespace bws::history {

inline constexpr int kSqliteFaultExitCode = 86;
inline constexpr const char* kSqliteFaultVariable = "BWSURVEY_HISTORY_EXIT_AT";

// The name of the VFS that counts and kills (registered on first use), or
// nullptr: SQLite's default.
const char* sqlite_fault_vfs();

}  // namespace bws::history
