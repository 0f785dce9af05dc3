#pragma once
// `bwreport history SUB ...`: one bwreport command that dispatches to its
// sub-commands, each a ReportCommand in its own file (docs/history-archive.md).
#include "report/ReportCommand.hpp"

namespace bws::history {

report::ReportCommand history_add_command();       // HistoryAdd.cpp
report::ReportCommand history_show_command();      // HistoryShow.cpp
// history changes ARCHIVE: change points in each node's series (HistoryChanges.cpp).
report::ReportCommand history_changes_command();
// history baseline ARCHIVE --out ref.ini: a --reference file from the archive (HistoryBaseline.cpp).
report::ReportCommand history_baseline_command();

// The dispatcher (HistoryCommand.cpp): "history" in bwreport's table.
report::ReportCommand history_command();

}  // namespace bws::history
