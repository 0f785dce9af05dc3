#pragma once
// bwreport plot --history ARCHIVE: the change points of the survey's hosts,
// written beside the report as the TSV of `bwreport history changes
// --format tsv` (the report's History section reads it). Declared here so
// that PlotCommand (bws_report) does not include the history commands;
// defined in lib/history/HistoryChangesTsv.cpp (bws_history, linked into
// bwreport).
#include <string>
#include <vector>

namespace bws::report {

// Writes the TSV to `path` (through a temporary file: a failed run leaves
// no partial table). Returns false when this build has no history changes
// command (then nothing is written). Throws UsageError when the archive is
// not one, RuntimeFailure when the command fails.
bool write_history_changes_tsv(const std::string& archive, const std::vector<std::string>& hosts,
                               const std::string& path);

}  // namespace bws::report
