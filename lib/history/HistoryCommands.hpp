#pragma once
// The `bwreport history SUB ...` sub-commands, each its own ReportCommand in
// its own file; the `history` dispatcher (HistoryCommand.cpp) runs them.
#include "report/ReportCommand.hpp"

namespace bws::history {

// history changes ARCHIVE: change points in each node's series (HistoryChanges.cpp).
report::ReportCommand history_changes_command();
// history baseline ARCHIVE --out ref.ini: a --reference file from the archive (HistoryBaseline.cpp).
report::ReportCommand history_baseline_command();

}  // namespace bws::history
