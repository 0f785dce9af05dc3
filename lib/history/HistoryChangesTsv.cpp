// bwreport plot --history: `bwreport history changes ARCHIVE --format tsv
// --node H...` for the survey's hosts, into the report's folder
// (report/HistoryChangesHook.hpp). The table is written through
// core/FileGuard: never onto the archive (or a link, a device), replaced
// only when it is a text file, renamed into place when complete.
#include <sqlite3.h>

#include <set>

#include "core/Errors.hpp"
#include "core/FileGuard.hpp"
#include "core/PrintableText.hpp"
#include "history/ArchiveAccess.hpp"
#include "history/HistoryCommands.hpp"
#include "history/Sqlite.hpp"

namespace bws::history {
namespace {

// The hosts of `wanted` that the archive has a row for: `history changes
// --node` refuses a host it does not know, and a survey never added has
// hosts the archive has not seen.
std::vector<std::string> archived_hosts(const std::string& archive, const std::vector<std::string>& wanted) {
  SqliteDb db = open_archive_to_read(archive);
  std::set<std::string> known;
  try {
    SqliteStatement hosts = db.prepare("SELECT name FROM hosts");
    while (hosts.step()) known.insert(hosts.column_text(0));
  } catch (const SqliteError& e) {
    if (e.primary_code() != SQLITE_ERROR) throw;  // "no such table"; a locked archive is not foreign
    throw UsageError("--history: '" + printable_text(archive, 200) +
                     "' is an SQLite database but not a history archive (no hosts table); give an archive made by "
                     "'bwreport history add'");
  }
  std::vector<std::string> hosts;
  for (const std::string& h : wanted)
    if (known.count(h)) hosts.push_back(h);
  return hosts;
}

}  // namespace

void write_history_changes_tsv(const std::string& archive, const std::vector<std::string>& hosts,
                               const std::string& path) {
  // The report's own table is replaced on every run (force); the output
  // is checked before the archive is opened.
  AtomicFile file(path, OutputRules{"-o with --history (its history_changes.tsv)", true, {archive}, OwnFile::Text});
  const std::vector<std::string> known = archived_hosts(archive, hosts);
  int code = kExitOk;
  if (known.empty()) {
    // No host of the survey is archived: the table has no rows.
    file.stream() << kChangesTsvHeader;
  } else {
    report::CommandArgs args = {archive, "--format", "tsv"};
    for (const std::string& host : known) {
      args.push_back("--node");
      args.push_back(host);
    }
    code = history_changes_command().run(args, file.stream());
  }
  if (code != kExitOk) throw RuntimeFailure("bwreport history changes could not write " + printable_text(path, 200));
  file.commit();
}

}  // namespace bws::history
