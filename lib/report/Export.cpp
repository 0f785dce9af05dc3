// bwreport export --format F|--csv|--json FILE [--table PATH] [--dir DIR]:
// every table of a survey file (and each benchmark's export views, e.g.
// BabelStream's CSV in stream/babelstream and stream/babelstream-ranks) in
// one of the registered formats (report/TableFormat.hpp: CSV with headers
// with units, JSON as an array of records, ...), one file per table, or one table to standard output; nodes/verdicts is computed: every
// node's metric values judged by the flag rule. --prometheus: the node metrics
// and flags in the Prometheus text format, to standard output
// (report/PrometheusExport.hpp). Every file goes through core/FileGuard: a
// directory export is all or nothing (AtomicDirectory), --out is written at
// once (AtomicFile); text to standard output is made whole before it is
// printed, so a table that cannot be read prints nothing.
#include <algorithm>
#include <cctype>
#include <functional>
#include <filesystem>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>

#include <boost/program_options/options_description.hpp>

#include "catalog/Registry.hpp"
#include "core/Errors.hpp"
#include "core/FileGuard.hpp"
#include "core/OptionText.hpp"
#include "core/PrintableText.hpp"
#include "h5/ResultFile.hpp"
#include "report/CommandOptions.hpp"
#include "report/PrometheusExport.hpp"
#include "report/ReportCommand.hpp"
#include "report/SurveyTables.hpp"
#include "report/TableFormat.hpp"

namespace po = boost::program_options;

namespace bws::report {
namespace {

// A table to export, read or computed only when it is written (the
// report asks for one computed table of a 10,000-node file).
struct Named {
  std::string path;
  std::function<Table()> read;
  HeaderNames names = HeaderNames::WithUnits;  // AsDeclared: a view with another tool's header
};

// The stored tables, the views whose source tables the file has, and the
// node verdicts when the file has node metrics.
std::vector<Named> exportable(const h5::ResultReader& file) {
  std::vector<Named> out;
  for (const std::string& path : file.table_paths())
    out.push_back({path, [&file, path] { return file.read_table(path); }});
  for (const auto& entry : catalog::benchmark_registry()) {
    for (const ExportView& view : entry.export_views) {
      std::vector<std::string> present;
      for (const std::string& s : view.source_tables)
        if (file.exists("/" + s)) present.push_back(s);
      if (present.empty()) continue;
      out.push_back({view.name, [&file, &view, present] {
                       std::vector<Table> sources;
                       for (const std::string& s : present) sources.push_back(file.read_table(s));
                       return view.make(sources);
                     },
                     view.foreign_header ? HeaderNames::AsDeclared : HeaderNames::WithUnits});
    }
  }
  const std::vector<std::string> metric_paths = model::metric_tables(catalog::all_node_metrics());
  if (std::any_of(metric_paths.begin(), metric_paths.end(), [&](const std::string& p) { return file.exists("/" + p); }))
    out.push_back({kNodeVerdictsPath, [&file] { return node_verdicts(file); }});
  if (file.exists("/nodes/table")) out.push_back({kNodeCohortsPath, [&file] { return node_cohort_table(file); }});
  return out;
}

// What the command line asks for: its options, declared once below.
struct ExportOptions : TypedOptions {
  std::string format;  // a registered format's name, "" when none was named
  bool csv = false, json = false, prometheus = false, timestamps = false, force = false;
  std::string table, dir, out;  // "" when not given
};

// (Streams, not chained string +: GCC 12 warns falsely on those.)
std::string format_names() {
  std::ostringstream names;
  for (const auto& f : table_formats()) names << (names.tellp() > 0 ? ", " : "") << f->name();
  return names.str();
}

std::string format_help() {
  std::ostringstream help;
  help << "the format of the tables:";
  for (const auto& f : table_formats()) help << " " << f->name() << ": " << f->help() << ";";
  help << " default: none (give --format, --csv, --json or --prometheus)";
  return help.str();
}

// Made on each call: a format registered later (a test's) is offered too.
OptionSchema<ExportOptions> export_schema() {
  return OptionSchema<ExportOptions>({
      bind_option(text_option("format", "", format_help()).note(format_names()), &ExportOptions::format,
                  [](const OptionValue& v) {
                    if (!v.text.empty() && !find_table_format(v.text))
                      throw UsageError("--format: unknown format " + quoted_input(v.text, 64) +
                                       "; allowed: " + format_names());
                    return v.text;
                  }),
      bind_option(flag_option("csv", false, "the same as --format csv"), &ExportOptions::csv),
      bind_option(flag_option("json", false, "the same as --format json"), &ExportOptions::json),
      bind_option(flag_option("prometheus", false,
                              "write the node metrics, flags and survey info in the Prometheus text format to "
                              "standard output (or --out), for node_exporter's textfile collector"),
                  &ExportOptions::prometheus),
      bind_option(flag_option("prometheus-timestamps", false,
                              "with --prometheus: every sample carries the survey's start time in ms (for a "
                              "Pushgateway or remote write; node_exporter's textfile collector rejects files with "
                              "timestamps) (default: off)"),
                  &ExportOptions::timestamps),
      bind_option(text_option("table", "",
                              "only this table (e.g. stream/results, stream/babelstream: BabelStream's --csv per "
                              "node, stream/babelstream-ranks: per rank, flags, nodes/verdicts: every node's metric "
                              "values judged by the flag rule), to standard output (or --out); default: every table"),
                  &ExportOptions::table),
      bind_option(text_option("dir", "",
                              "directory for the files, one per table named after its path (default: FILE without "
                              ".h5, plus - and the format's name: -csv, -json); made when missing (in an existing "
                              "directory); all files or none are written"),
                  &ExportOptions::dir),
      bind_option(text_option("out", "",
                              "with --table or --prometheus: write this file instead of standard output (a scratch "
                              "file beside it, renamed into place when complete: what node_exporter's textfile "
                              "collector needs); default: standard output"),
                  &ExportOptions::out),
      bind_option(flag_option("force", false, "replace existing files of an earlier export (text files only; never FILE)"),
                  &ExportOptions::force),
  });
}

// What the command line asks for, checked.
struct ExportRequest {
  std::string path;  // the survey file
  const TableFormat* format = nullptr;  // nullptr: --prometheus
  bool prometheus = false, timestamps = false, force = false;
  std::optional<std::string> table, dir, out;
};

// The file name of a table in the export directory: '/' and anything
// unusual (the path comes from the file) become '_'; a name that two tables
// would share gets "_2", "_3", ... (each file is written once).
std::string file_name_of(const std::string& table_path, const TableFormat& format, std::set<std::string>& taken) {
  std::string name = table_path;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  if (name.empty() || name[0] == '.') name = "_" + name;
  const std::string ext = format.extension();
  std::string file = name + ext;
  for (int n = 2; !taken.insert(file).second; ++n) file = name + "_" + std::to_string(n) + ext;
  return file;
}

// Every table into one directory, all or nothing: the files are written
// into a scratch directory inside it and moved into place once every table
// has been read and written (a table that cannot be read leaves nothing).
// Every target is checked (never an input, a link or a device; an existing
// one only with --force) before the first table is read.
int export_to_dir(const ExportRequest& request, const h5::ResultReader& file, std::ostream& out) {
  namespace fs = std::filesystem;
  const std::string dir =
      request.dir ? *request.dir
                  : fs::path(request.path).replace_extension("").string() + "-" + request.format->name();
  const OutputRules rules{"bwreport export: --dir", request.force, {request.path}, OwnFile::Text};
  const std::vector<Named> tables = exportable(file);
  AtomicDirectory files(dir, rules);
  std::set<std::string> taken;
  std::vector<std::pair<std::ostream*, std::string>> targets;
  for (const Named& t : tables) {
    const std::string name = file_name_of(t.path, *request.format, taken);
    targets.emplace_back(&files.add(name), (fs::path(dir) / name).string());
  }
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < tables.size(); ++i) {
    const Table table = tables[i].read();
    request.format->write(*targets[i].first, table, tables[i].names);
    lines.push_back(printable_text(targets[i].second) + "  (" + std::to_string(table.rows()) + " rows)");
  }
  files.commit();
  for (const std::string& line : lines) out << line << "\n";
  return kExitOk;
}

// One text (a table, the Prometheus metrics), made whole in memory first:
// to standard output, or with --out to a file written at once.
void emit(const ExportRequest& request, const std::string& text, std::ostream& out) {
  if (!request.out) {
    out << text;
    return;
  }
  AtomicFile file(*request.out, {"bwreport export: --out", request.force, {request.path}, OwnFile::Text});
  file.write(text);
  file.commit();
}

int export_one_table(const ExportRequest& request, const h5::ResultReader& file, std::ostream& out) {
  const std::vector<Named> tables = exportable(file);
  for (const Named& t : tables)
    if (t.path == *request.table) {
      std::ostringstream text;
      request.format->write(text, t.read(), t.names);
      emit(request, text.str(), out);
      return kExitOk;
    }
  std::string known;
  for (const Named& t : tables) known += (known.empty() ? "" : ", ") + t.path;
  throw UsageError("bwreport export: --table: '" + printable_text(*request.table, 200) + "' is not in '" +
                   printable_text(request.path, 200) + "'; tables: " + printable_text(known, 400));
}

// The request the options make, checked against each other.
ExportRequest export_request(const ExportOptions& o, const std::string& path) {
  ExportRequest request;
  request.path = path;
  request.prometheus = o.prometheus;
  request.timestamps = o.timestamps;
  request.force = o.force;
  if (!o.table.empty()) request.table = o.table;
  if (!o.dir.empty()) request.dir = o.dir;
  if (!o.out.empty()) request.out = o.out;
  int named = int(o.csv) + int(o.json) + int(o.prometheus) + int(!o.format.empty());
  if (named != 1)
    throw UsageError("bwreport export: give exactly one of --format, --csv, --json and --prometheus (formats: " +
                     format_names() + ")");
  if (!o.prometheus) request.format = find_table_format(o.csv ? "csv" : o.json ? "json" : o.format);
  if (request.timestamps && !request.prometheus)
    throw UsageError("bwreport export: --prometheus-timestamps needs --prometheus");
  if (request.prometheus && (request.table || request.dir))
    throw UsageError("bwreport export: --prometheus writes one text (standard output or --out); --table and --dir "
                     "are for the table formats (" + format_names() + ")");
  if (request.out && !request.table && !request.prometheus)
    throw UsageError("bwreport export: --out is for --table and --prometheus; allowed: --dir DIR for every table");
  if (request.out && request.dir) throw UsageError("bwreport export: --out and --dir: give one of them");
  return request;
}

int run_export(const CommandArgs& args, std::ostream& out) {
  const OptionSchema<ExportOptions> schema = export_schema();
  po::options_description desc("Options");
  add_command_options(desc, schema.list());
  const ParsedCommand parsed = parse_command("export", args, desc, 1, 1);
  if (parsed.help) {
    print_command_help(out, export_command(), desc);
    return 0;
  }
  const ExportRequest request = export_request(read_command_options("export", schema, parsed), parsed.positional[0]);
  // The output is checked before the survey is read: a refusal comes first.
  if (request.out)
    check_output_file(*request.out, {"bwreport export: --out", request.force, {request.path}, OwnFile::Text});
  const auto file = h5::ResultReader::open(request.path);
  if (request.prometheus) {
    require_survey_file(file, request.path, "export");
    std::ostringstream text;
    write_prometheus(text, read_prometheus_records(file), request.timestamps);
    emit(request, text.str(), out);
    return kExitOk;
  }
  return request.table ? export_one_table(request, file, out) : export_to_dir(request, file, out);
}

}  // namespace

ReportCommand export_command() {
  return {"export",
          "export --format F|--csv|--json FILE [--table PATH [--out F]] [--dir DIR] [--force] | --prometheus FILE "
          "[--out F]   "
          "flat tables (a directory written all or nothing); "
          "headers with units, JSON records; stream/babelstream(-ranks) has BabelStream's --csv columns; --prometheus: "
          "node metrics for node_exporter",
          run_export};
}

}  // namespace bws::report
