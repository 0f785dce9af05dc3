// `bwreport history add ARCHIVE FILE... [--partial]`: indexes survey files
// into the archive. Every file is read and checked before the archive is
// opened, and all of one call's surveys go in one transaction: a bad file
// leaves the archive as it was (not even created), never half a survey. An
// archive that is damaged (PRAGMA quick_check) is refused before a byte is
// written (ArchiveAccess.hpp).
#include <ostream>
#include <set>

#include <boost/program_options/options_description.hpp>

#include "core/Errors.hpp"
#include "core/FileGuard.hpp"
#include "core/PrintableText.hpp"
#include "core/Timestamps.hpp"
#include "history/ArchiveAccess.hpp"
#include "history/ArchiveStore.hpp"
#include "history/HistoryCommands.hpp"
#include "report/CommandOptions.hpp"

namespace bws::history {
namespace {

namespace po = boost::program_options;

struct AddOptions : TypedOptions {
  bool partial = false;
};

const OptionSchema<AddOptions>& add_schema() {
  static const OptionSchema<AddOptions> schema({bind_option(
      flag_option("partial", false,
                  "also add surveys that are not complete (running, aborted), with status 'partial: <why>' "
                  "(default: off, such a file is refused)"),
      &AddOptions::partial)});
  return schema;
}

int run_add(const report::CommandArgs& args, std::ostream& out) {
  po::options_description desc("Options");
  report::add_command_options(desc, add_schema().list());
  const report::ParsedCommand parsed = report::parse_command("history add", args, desc, 2, -1);
  if (parsed.help) {
    report::print_command_help(out, history_add_command(), desc);
    return kExitOk;
  }
  const bool partial = add_schema().read(report::command_config(parsed.options), false).partial;
  const std::string& archive = parsed.positional[0];
  const std::vector<std::string> files(parsed.positional.begin() + 1, parsed.positional.end());
  require_archive_path(archive, true);
  refuse_input_as_output("ARCHIVE", archive, files);  // a directory, a FIFO, a device: refused before anything is read

  std::vector<SurveyIndex> surveys;
  for (const std::string& file : files) {
    require_regular_input("FILE", file);  // a FIFO would block HDF5's open; a device is never touched
    SurveyIndex index = read_survey_index(file);
    if (!index.survey.incomplete_reason.empty() && !partial)
      throw UsageError("'" + printable_text(file, 200) + "' is not a complete survey (" +
                       index.survey.incomplete_reason + "); add it with --partial to keep it as partial");
    surveys.push_back(std::move(index));
  }

  SqliteDb db = open_archive_to_add(archive);
  tune_for_bulk_insert(db);
  // The write lock first, then the checks: no other add changes the file
  // between the check and the write, and a refusal rolls back an empty
  // transaction (a foreign or damaged file stays byte for byte as it was).
  SqliteTransaction transaction(db);
  check_archive_before_add(db);
  prepare_archive(db);
  const std::string added_utc = utc_now_iso8601();
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < surveys.size(); ++i) {
    const SurveyIndex& index = surveys[i];
    const std::string name = printable_text(files[i], 200);
    if (const std::int64_t existing = survey_with_sha256(db, index.survey.sha256)) {
      lines.push_back(name + ": already in the archive as survey " + std::to_string(existing) +
                      " (same sha256); nothing added");
      continue;
    }
    const std::string status =
        index.survey.incomplete_reason.empty() ? std::string("complete") : "partial: " + index.survey.incomplete_reason;
    const std::int64_t id = insert_survey(db, index, status, added_utc);
    lines.push_back(name + ": added as survey " + std::to_string(id) + " (" + status + ", " +
                    std::to_string(index.survey.nodes.size()) + " nodes, " + std::to_string(index.values.size()) +
                    " node values, started " + printable_text(index.survey.started_utc, 40) + ")");
  }
  transaction.commit();
  for (const std::string& line : lines) out << line << "\n";
  return kExitOk;
}

}  // namespace

report::ReportCommand history_add_command() {
  return {"add", "history add ARCHIVE FILE... [--partial]   index survey files into the archive (SQLite; made when missing)",
          [](const report::CommandArgs& args, std::ostream& out) {
            return report::with_command_name("history add", run_add, args, out);
          }};
}

}  // namespace bws::history
