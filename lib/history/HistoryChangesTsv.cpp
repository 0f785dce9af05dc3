// bwreport plot --history: `bwreport history changes ARCHIVE --format tsv
// --node H...` for the survey's hosts, into the report's folder
// (report/HistoryChangesHook.hpp).
#include <cstdio>
#include <fstream>

#include "core/Errors.hpp"
#include "report/HistoryChangesHook.hpp"
#include "report/ReportCommand.hpp"

// history_changes_command() comes with `bwreport history changes`; a tree
// built before it has the hook write nothing (the report says so).
#if __has_include("history/HistoryCommands.hpp")
#include "history/HistoryCommands.hpp"
#define BWS_HAS_HISTORY_CHANGES 1
#else
#define BWS_HAS_HISTORY_CHANGES 0
#endif

namespace bws::report {

bool write_history_changes_tsv(const std::string& archive, const std::vector<std::string>& hosts,
                               const std::string& path) {
#if BWS_HAS_HISTORY_CHANGES
  CommandArgs args = {archive, "--format", "tsv"};
  for (const std::string& host : hosts) {
    args.push_back("--node");
    args.push_back(host);
  }
  const std::string temporary = path + ".part";
  int code = 0;
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file) throw RuntimeFailure("cannot write " + temporary);
    try {
      code = bws::history::history_changes_command().run(args, file);
    } catch (...) {
      file.close();
      std::remove(temporary.c_str());
      throw;
    }
    file.flush();
    if (!file) code = kExitFailure;
  }
  if (code != kExitOk || std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw RuntimeFailure("bwreport history changes could not write " + path);
  }
  return true;
#else
  (void)archive;
  (void)hosts;
  (void)path;
  return false;
#endif
}

}  // namespace bws::report
