#pragma once
// `bwreport history SUB ...`: one bwreport command that dispatches to its
// sub-commands, each a ReportCommand in its own file (docs/history-archive.md).
#include "report/ReportCommand.hpp"

namespace bws::history {

report::ReportCommand history_add_command();   // HistoryAdd.cpp
report::ReportCommand history_show_command();  // HistoryShow.cpp

// The dispatcher (HistoryCommand.cpp): "history" in bwreport's table.
report::ReportCommand history_command();

}  // namespace bws::history
