#pragma once
// bwreport verdict on the history archive: the node's latest survey in the
// archive and the flags it had there, as a survey file would give them
// (history/NodeVerdict), by a few probes of the primary keys.
#include <cstdint>
#include <string>

#include "core/Table.hpp"
#include "history/NodeVerdict.hpp"
#include "history/Sqlite.hpp"

namespace bws::history {

struct ArchivedStanding {
  SurveyFacts survey;  // the latest survey holding the host; has_node false when none does
  Table flags;         // that survey's flags of the host, as /flags rows (status 'not retested' where none was kept)
};

// `version` is the archive's schema version (require_archive_version).
ArchivedStanding archived_standing(SqliteDb& db, int version, const std::string& host);

// Whether the file begins as an SQLite database does ("SQLite format 3\0");
// UsageError for a path that is not a readable regular file.
bool is_sqlite_file(const std::string& path);

}  // namespace bws::history
