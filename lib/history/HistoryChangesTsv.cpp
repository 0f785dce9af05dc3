// bwreport plot --history: `bwreport history changes ARCHIVE --format tsv
// --node H...` for the survey's hosts, into the report's folder
// (report/HistoryChangesHook.hpp).
#include <cstdio>
#include <fstream>
#include <set>

#include "core/Errors.hpp"
#include "history/HistoryCommands.hpp"
#include "history/Sqlite.hpp"

namespace bws::history {
namespace {

// The hosts of `wanted` that the archive has a row for: `history changes
// --node` refuses a host it does not know, and a survey never added has
// hosts the archive has not seen.
std::vector<std::string> archived_hosts(const std::string& archive, const std::vector<std::string>& wanted) {
  SqliteDb db(archive, SqliteDb::Mode::kReadOnly);
  std::set<std::string> known;
  try {
    SqliteStatement hosts = db.prepare("SELECT name FROM hosts");
    while (hosts.step()) known.insert(hosts.column_text(0));
  } catch (const RuntimeFailure&) {
    throw UsageError("--history: '" + archive + "' is not a history archive (no hosts table); make one with 'bwreport history add'");
  }
  std::vector<std::string> hosts;
  for (const std::string& h : wanted)
    if (known.count(h)) hosts.push_back(h);
  return hosts;
}

}  // namespace

void write_history_changes_tsv(const std::string& archive, const std::vector<std::string>& hosts,
                               const std::string& path) {
  const std::vector<std::string> known = archived_hosts(archive, hosts);
  const std::string temporary = path + ".part";
  int code = kExitOk;
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file) throw RuntimeFailure("cannot write " + temporary);
    try {
      if (known.empty()) {
        // No host of the survey is archived: the table has no rows.
        file << kChangesTsvHeader;
      } else {
        report::CommandArgs args = {archive, "--format", "tsv"};
        for (const std::string& host : known) {
          args.push_back("--node");
          args.push_back(host);
        }
        code = history_changes_command().run(args, file);
      }
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
}

}  // namespace bws::history
