// bwreport export --csv|--json FILE [--table PATH] [--dir DIR]: every table
// of a survey file (and each benchmark's export views, e.g. BabelStream's
// CSV in stream/babelstream and stream/babelstream-ranks) as flat CSV or
// JSON files (headers with units, JSON as an array of records:
// report/TableText.hpp), one per table, or one table to standard output; nodes/verdicts is computed: every
// node's metric values judged by the flag rule. --prometheus: the node metrics
// and flags in the Prometheus text format, to standard output
// (report/PrometheusExport.hpp).
#include <algorithm>
#include <cctype>
#include <functional>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "catalog/Registry.hpp"
#include "core/Errors.hpp"
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

int run_export(const CommandArgs& args, std::ostream& out) {
  po::options_description desc("Options");
  desc.add_options()("csv", po::bool_switch(),
                     "write CSV (one of --csv, --json, --prometheus); header names carry units: bandwidth_Bps, t_min_s")(
      "json", po::bool_switch(), "write JSON: an array of records, one object per row (pandas.read_json(orient=\"records\"))")(
      "prometheus", po::bool_switch(),
      "write the node metrics, flags and survey info in the Prometheus text format to standard output, for "
      "node_exporter's textfile collector (write to a temporary file and rename it into the collector's directory)")(
      "prometheus-timestamps", po::bool_switch(),
      "with --prometheus: every sample carries the survey's start time in ms (for a Pushgateway or remote write; "
      "node_exporter's textfile collector rejects files with timestamps) (default: off)")(
      "table", po::value<std::string>(),
      "only this table (e.g. stream/results, stream/babelstream: BabelStream's --csv per node, "
      "stream/babelstream-ranks: per rank, flags, nodes/verdicts: every node's metric values judged by the flag rule), "
      "to standard output")(
      "dir", po::value<std::string>(),
      "directory for the files, one per table named after its path (default: FILE without .h5, plus -csv or -json)");
  const ParsedCommand parsed = parse_command("export", args, desc, 1, 1);
  if (parsed.help) {
    print_command_help(out, export_command(), desc);
    return 0;
  }
  const bool csv = parsed.options["csv"].as<bool>(), json = parsed.options["json"].as<bool>();
  const bool prometheus = parsed.options["prometheus"].as<bool>();
  const bool timestamps = parsed.options["prometheus-timestamps"].as<bool>();
  if (int(csv) + int(json) + int(prometheus) != 1)
    throw UsageError("bwreport export: give exactly one of --csv, --json and --prometheus");
  if (timestamps && !prometheus) throw UsageError("bwreport export: --prometheus-timestamps needs --prometheus");
  if (prometheus && (parsed.options.count("table") || parsed.options.count("dir")))
    throw UsageError("bwreport export: --prometheus writes to standard output; --table and --dir are for --csv and --json");
  const std::string& path = parsed.positional[0];
  const auto file = h5::ResultReader::open(path);
  if (prometheus) {
    require_survey_file(file, path, "export");
    write_prometheus(out, read_prometheus_records(file), timestamps);
    return 0;
  }
  std::vector<Named> tables = exportable(file);

  if (parsed.options.count("table")) {
    const std::string wanted = parsed.options["table"].as<std::string>();
    for (const Named& t : tables)
      if (t.path == wanted) {
        write(out, t, t.read(), json);
        return 0;
      }
    std::string known;
    for (const Named& t : tables) known += (known.empty() ? "" : ", ") + t.path;
    throw UsageError("bwreport export: --table: '" + printable_text(wanted, 200) + "' is not in '" +
                     printable_text(path, 200) + "'; tables: " + printable_text(known, 400));
  }

  namespace fs = std::filesystem;
  fs::path dir = parsed.options.count("dir") ? fs::path(parsed.options["dir"].as<std::string>())
                                             : fs::path(fs::path(path).replace_extension("").string() + (json ? "-json" : "-csv"));
  std::error_code error;
  fs::create_directories(dir, error);
  if (error)
    throw UsageError("bwreport export: --dir: cannot create '" + printable_text(dir.string(), 300) + "': " +
                     error.message());
  // A file name of the table's path: '/' and anything unusual (the path
  // comes from the file) become '_'.
  auto target_of = [&](const Named& t) {
    std::string name = t.path;
    for (char& c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
    if (name.empty() || name[0] == '.') name = "_" + name;
    return dir / (name + (json ? ".json" : ".csv"));
  };
  for (const Named& t : tables) refuse_output_over_input("export", "--dir file", target_of(t).string(), {path});
  for (const Named& t : tables) {
    const fs::path target = target_of(t);
    const Table table = t.read();
    std::ofstream file_out(target);
    write(file_out, t, table, json);
    file_out.close();
    if (!file_out) throw RuntimeFailure("bwreport export: cannot write '" + printable_text(target.string(), 300) + "'");
    out << printable_text(target.string()) << "  (" << table.rows() << " rows)\n";
  }
  return 0;
}

}  // namespace

ReportCommand export_command() {
  return {"export",
          "export --csv|--json FILE [--table PATH] [--dir DIR] | --prometheus FILE   flat tables; "
          "headers with units, JSON records; stream/babelstream(-ranks) has BabelStream's --csv columns; --prometheus: "
          "node metrics for node_exporter",
          run_export};
}

}  // namespace bws::report
