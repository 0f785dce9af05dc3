// bwreport export --csv|--json FILE [--table PATH] [--dir DIR]: every table
// of a survey file (and each benchmark's export views, e.g. BabelStream's
// CSV in stream/babelstream and stream/babelstream-ranks) as flat CSV or
// JSON files (headers with units, JSON as an array of records:
// report/TableText.hpp), one per table, or one table to standard output; nodes/verdicts is computed: every
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

#include "catalog/Registry.hpp"
#include "core/Errors.hpp"
#include "core/FileGuard.hpp"
#include "core/PrintableText.hpp"
#include "h5/ResultFile.hpp"
#include "report/PrometheusExport.hpp"
#include "report/ReportCommand.hpp"
#include "report/SurveyTables.hpp"
#include "report/TableText.hpp"

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

void write(std::ostream& out, const Named& named, const Table& table, bool json) {
  if (json)
    write_json(out, table, named.names);
  else
    write_csv(out, table, named.names);
}

// What the command line asks for.
struct ExportRequest {
  std::string path;      // the survey file
  bool json = false, prometheus = false, timestamps = false, force = false;
  std::optional<std::string> table, dir, out;
};

// The file name of a table in the export directory: '/' and anything
// unusual (the path comes from the file) become '_'; a name that two tables
// would share gets "_2", "_3", ... (each file is written once).
std::string file_name_of(const std::string& table_path, bool json, std::set<std::string>& taken) {
  std::string name = table_path;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  if (name.empty() || name[0] == '.') name = "_" + name;
  const std::string ext = json ? ".json" : ".csv";
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
                  : fs::path(request.path).replace_extension("").string() + (request.json ? "-json" : "-csv");
  const OutputRules rules{"bwreport export: --dir", request.force, {request.path}, OwnFile::Text};
  const std::vector<Named> tables = exportable(file);
  AtomicDirectory files(dir, rules);
  std::set<std::string> taken;
  std::vector<std::pair<std::ostream*, std::string>> targets;
  for (const Named& t : tables) {
    const std::string name = file_name_of(t.path, request.json, taken);
    targets.emplace_back(&files.add(name), (fs::path(dir) / name).string());
  }
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < tables.size(); ++i) {
    const Table table = tables[i].read();
    write(*targets[i].first, tables[i], table, request.json);
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
      write(text, t, t.read(), request.json);
      emit(request, text.str(), out);
      return kExitOk;
    }
  std::string known;
  for (const Named& t : tables) known += (known.empty() ? "" : ", ") + t.path;
  throw UsageError("bwreport export: --table: '" + printable_text(*request.table, 200) + "' is not in '" +
                   printable_text(request.path, 200) + "'; tables: " + printable_text(known, 400));
}

po::options_description export_options() {
  po::options_description desc("Options");
  desc.add_options()("csv", po::bool_switch(),
                     "write CSV (one of --csv, --json, --prometheus); header names carry units: bandwidth_Bps, t_min_s")(
      "json", po::bool_switch(), "write JSON: an array of records, one object per row (pandas.read_json(orient=\"records\"))")(
      "prometheus", po::bool_switch(),
      "write the node metrics, flags and survey info in the Prometheus text format to standard output (or --out), "
      "for node_exporter's textfile collector")(
      "prometheus-timestamps", po::bool_switch(),
      "with --prometheus: every sample carries the survey's start time in ms (for a Pushgateway or remote write; "
      "node_exporter's textfile collector rejects files with timestamps) (default: off)")(
      "table", po::value<std::string>(),
      "only this table (e.g. stream/results, stream/babelstream: BabelStream's --csv per node, "
      "stream/babelstream-ranks: per rank, flags, nodes/verdicts: every node's metric values judged by the flag rule), "
      "to standard output (or --out)")(
      "dir", po::value<std::string>(),
      "directory for the files, one per table named after its path (default: FILE without .h5, plus -csv or -json); "
      "made when missing (in an existing directory); all files or none are written")(
      "out", po::value<std::string>(),
      "with --table or --prometheus: write this file instead of standard output (a scratch file beside it, "
      "renamed into place when complete: what node_exporter's textfile collector needs)")(
      "force", po::bool_switch(), "replace existing files of an earlier export (text files only; never FILE)");
  return desc;
}

int run_export(const CommandArgs& args, std::ostream& out) {
  const po::options_description desc = export_options();
  const ParsedCommand parsed = parse_command("export", args, desc, 1, 1);
  if (parsed.help) {
    print_command_help(out, export_command(), desc);
    return 0;
  }
  const auto& o = parsed.options;
  ExportRequest request;
  request.path = parsed.positional[0];
  request.json = o["json"].as<bool>();
  request.prometheus = o["prometheus"].as<bool>();
  request.timestamps = o["prometheus-timestamps"].as<bool>();
  request.force = o["force"].as<bool>();
  if (o.count("table")) request.table = o["table"].as<std::string>();
  if (o.count("dir")) request.dir = o["dir"].as<std::string>();
  if (o.count("out")) request.out = o["out"].as<std::string>();
  if (int(o["csv"].as<bool>()) + int(request.json) + int(request.prometheus) != 1)
    throw UsageError("bwreport export: give exactly one of --csv, --json and --prometheus");
  if (request.timestamps && !request.prometheus)
    throw UsageError("bwreport export: --prometheus-timestamps needs --prometheus");
  if (request.prometheus && (request.table || request.dir))
    throw UsageError("bwreport export: --prometheus writes one text (standard output or --out); --table and --dir "
                     "are for --csv and --json");
  if (request.out && !request.table && !request.prometheus)
    throw UsageError("bwreport export: --out is for --table and --prometheus; allowed: --dir DIR for every table");
  if (request.out && request.dir) throw UsageError("bwreport export: --out and --dir: give one of them");
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
          "export --csv|--json FILE [--table PATH [--out F]] [--dir DIR] [--force] | --prometheus FILE [--out F]   "
          "flat tables (a directory written all or nothing); "
          "headers with units, JSON records; stream/babelstream(-ranks) has BabelStream's --csv columns; --prometheus: "
          "node metrics for node_exporter",
          run_export};
}

}  // namespace bws::report
