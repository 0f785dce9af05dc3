#pragma once
// `bwreport history SUB ...`: one bwreport command that dispatches to its
// sub-commands, each a ReportCommand in its own file (docs/history-archive.md).
#include <string>
#include <vector>

#include "report/ReportCommand.hpp"

namespace bws::history {

report::ReportCommand history_add_command();       // HistoryAdd.cpp
report::ReportCommand history_show_command();      // HistoryShow.cpp
// history changes ARCHIVE: change points in each node's series (HistoryChanges.cpp).
report::ReportCommand history_changes_command();
// history baseline ARCHIVE --out ref.ini: a --reference file from the archive (HistoryBaseline.cpp).
report::ReportCommand history_baseline_command();

// The first line of `history changes --format tsv` (tab separated, one row
// per change point after it).
inline constexpr const char* kChangesTsvHeader =
    "host\tmetric\tchanged_utc\tsurvey_id\tchange_percent\tconfidence\tbefore\tafter\tunit\n";

// bwreport plot --history's writer (report/HistoryChangesHook.hpp):
// `history changes ARCHIVE --format tsv --node H...` for the hosts the
// archive knows, into `path` (HistoryChangesTsv.cpp).
void write_history_changes_tsv(const std::string& archive, const std::vector<std::string>& hosts,
                               const std::string& path);

// The dispatcher (HistoryCommand.cpp): "history" in bwreport's table.
report::ReportCommand history_command();

}  // namespace bws::history
