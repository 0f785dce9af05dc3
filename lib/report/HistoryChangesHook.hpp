#pragma once
// bwreport plot --history ARCHIVE: the change points of the survey's hosts,
// written beside the report as the TSV of `bwreport history changes
// --format tsv` (the report's History section reads it). bws_report sits
// below bws_history (which builds on the report's commands), so the plot
// command is handed the writer: apps/bwreport.cpp passes
// history::write_history_changes_tsv (lib/history/HistoryChangesTsv.cpp).
#include <string>
#include <vector>

namespace bws::report {

// Writes the TSV to `path` for the `hosts` the archive knows (a host it has
// never seen has no series: no rows). Throws UsageError when the archive is
// not one, RuntimeFailure when the command fails; never leaves a partial file.
using HistoryChangesWriter = void (*)(const std::string& archive, const std::vector<std::string>& hosts,
                                      const std::string& path);

}  // namespace bws::report
