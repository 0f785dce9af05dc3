#pragma once
// Opening the archive (made with kArchiveSchemaSql when missing, refused
// when it is not an SQLite database or has another schema version) and
// writing one survey into it. `history add` and bench/history_archive_scale
// write through insert_survey(), so the benchmark times the real path.
#include <cstdint>
#include <string>

#include "history/Sqlite.hpp"
#include "history/SurveyIndex.hpp"

namespace bws::history {

// Checks archive_info's schema_version and returns it (from
// kOldestReadableArchiveVersion to kArchiveSchemaVersion): UsageError
// "archive 'path' is not a bwsurvey history archive (...)" or "... has
// schema version X; this bwreport reads versions 1 to N", one line.
int require_archive_version(SqliteDb& db);

// Makes the schema (tables, indexes, view, archive_info) in a new or empty
// database; an existing archive is only checked.
void prepare_archive(SqliteDb& db);

// A larger page cache for the writer (256 MiB): one survey's rows land on
// pages all over the primary key's B-tree of a large archive.
void tune_for_bulk_insert(SqliteDb& db);

// The survey id of an archived file with this content hash, or 0.
std::int64_t survey_with_sha256(SqliteDb& db, const std::string& sha256);

// Inserts the survey and its node values (inside the caller's
// transaction) with `status` ('complete' or 'partial: <why>'); the cohort
// medians of each metric go to cohort_stats. Returns the survey id.
std::int64_t insert_survey(SqliteDb& db, const SurveyIndex& index, const std::string& status,
                           const std::string& added_utc);

}  // namespace bws::history
