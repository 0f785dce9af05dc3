// `bwreport history show ARCHIVE --node HOST [--metric M] [--plot OUT.png]`
// and `bwreport history show ARCHIVE --metric M [--top N]` (the movers).
#include <cstdint>
#include <cstdio>
#include <optional>
#include <ostream>
#include <sstream>

#include <boost/program_options/options_description.hpp>

#include "core/Errors.hpp"
#include "core/FileGuard.hpp"
#include "core/PrintableText.hpp"
#include "history/ArchiveAccess.hpp"
#include "history/ArchiveQueries.hpp"
#include "history/ArchiveStore.hpp"
#include "history/HistoryCommands.hpp"
#include "report/PlotCommand.hpp"
#include "report/CommandOptions.hpp"

namespace bws::history {
namespace {

namespace po = boost::program_options;

constexpr std::size_t kListedNames = 20;  // an unknown name lists at most this many of the archive's

inline constexpr const char* kHistoryPlotScript = "history_plot.py";

std::string what_the_archive_has(SqliteDb& db, const std::string& table, const char* noun) {
  std::size_t total = 0;
  const std::vector<std::string> names = names_in(db, table, kListedNames, total);
  std::string text = "the archive has " + std::to_string(total) + " " + noun + (total == 1 ? "" : "s");
  if (!names.empty()) text += ": ";
  for (std::size_t i = 0; i < names.size(); ++i) text += (i ? ", " : "") + printable_text(names[i], 100);
  if (total > names.size()) text += ", ...";
  return text;
}

// Values in GB/s for bandwidths, else in the metric's own unit.
std::string shown_value(double value, const std::string& unit) {
  char buf[64];
  if (unit == "B/s") std::snprintf(buf, sizeof buf, "%.3f", value / 1e9);
  else std::snprintf(buf, sizeof buf, "%.6g", value);
  return buf;
}
// The unit comes from the archive: printable text.
std::string shown_unit(const std::string& unit) { return unit == "B/s" ? "GB/s" : printable_text(unit, 40); }

std::vector<ArchivedMetric> required_metrics(SqliteDb& db, const std::string& name) {
  std::vector<ArchivedMetric> found = metrics_named(db, name);
  if (found.empty())
    throw UsageError("--metric '" + printable_text(name, 100) + "' is not in the archive; " +
                     what_the_archive_has(db, "metrics", "metric"));
  return found;
}

void print_series(std::ostream& out, const std::string& host, const ArchivedMetric& metric,
                  const std::vector<SeriesPoint>& series) {
  out << printable_text(host, 200) << "  " << printable_text(metric.name, 200) << " (" << shown_unit(metric.unit)
      << ", " << (metric.higher_is_better ? "higher is better" : "lower is better") << ")\n";
  char buf[256];
  std::snprintf(buf, sizeof buf, "  %-20s  %-12s  %12s  %10s  %s\n", "started_utc", "job", "value", "% median",
                "flagged");
  out << buf;
  for (const SeriesPoint& p : series) {
    const std::string value = p.value ? shown_value(*p.value, metric.unit) : "invalid";
    std::string percent = "-";
    if (p.value && p.cohort_median && *p.cohort_median != 0) {
      char pct[32];
      std::snprintf(pct, sizeof pct, "%.1f", 100.0 * *p.value / *p.cohort_median);
      percent = pct;
    }
    std::snprintf(buf, sizeof buf, "  %-20s  %-12s  %12s  %10s  %s\n", printable_text(p.started_utc, 40).c_str(),
                  p.job_id.empty() ? "-" : printable_text(p.job_id, 40).c_str(), value.c_str(), percent.c_str(),
                  p.flagged ? "yes" : "no");
    out << buf;
  }
}

int show_node(SqliteDb& db, const std::string& host, const std::string& metric_name, std::ostream& out) {
  const std::int64_t host_key = host_id(db, host);
  if (host_key == 0)
    throw UsageError("--node '" + printable_text(host, 100) + "' is not in the archive; " +
                     what_the_archive_has(db, "hosts", "host"));
  const std::vector<ArchivedMetric> of_host = metrics_of_host(db, host_key);
  std::vector<ArchivedMetric> shown;
  if (metric_name.empty()) {
    shown = of_host;
  } else {
    for (const ArchivedMetric& m : required_metrics(db, metric_name))
      for (const ArchivedMetric& h : of_host)
        if (h.id == m.id) shown.push_back(m);
    if (shown.empty()) {
      std::string names;
      for (std::size_t i = 0; i < of_host.size() && i < kListedNames; ++i)
        names += (i ? ", " : "") + printable_text(of_host[i].name, 100);
      throw UsageError("--metric '" + printable_text(metric_name, 100) + "': node '" + printable_text(host, 100) +
                       "' has no values of it; it has " + (names.empty() ? std::string("none") : names));
    }
  }
  for (std::size_t i = 0; i < shown.size(); ++i) {
    if (i) out << "\n";
    print_series(out, host, shown[i], node_series(db, host_key, shown[i].id));
  }
  return kExitOk;
}

int show_movers(SqliteDb& db, const std::string& metric_name, std::size_t top, std::ostream& out) {
  const std::vector<ArchivedMetric> metrics = required_metrics(db, metric_name);
  char buf[256];
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    const ArchivedMetric& m = metrics[i];
    if (i) out << "\n";
    out << printable_text(m.name, 200) << ": the nodes whose latest value moved most against their own past "
        << "(latest vs the median of their earlier surveys)\n";
    std::snprintf(buf, sizeof buf, "  %-24s  %-20s  %12s  %12s  %8s  %s\n", "host", "latest_utc",
                  ("latest " + shown_unit(m.unit)).c_str(), ("past " + shown_unit(m.unit)).c_str(), "move %",
                  "past surveys");
    out << buf;
    for (const Mover& mv : movers(db, m.id, top)) {
      std::snprintf(buf, sizeof buf, "  %-24s  %-20s  %12s  %12s  %+8.1f  %d\n", printable_text(mv.host, 100).c_str(),
                    printable_text(mv.latest_utc, 40).c_str(), shown_value(mv.latest, m.unit).c_str(),
                    shown_value(mv.past_median, m.unit).c_str(), mv.move_percent, mv.past_surveys);
      out << buf;
    }
  }
  return kExitOk;
}

// The PNG the script writes: a new file, or a PNG it wrote before (the plot
// is drawn anew each time); never the archive, a link, a device, a FIFO or
// another kind of file. Checked before the archive is opened.
void check_plot_output(const std::string& png, const std::string& archive) {
  check_output_file(png, {"--plot", true, {archive}, OwnFile::Png});
}

int run_plot(const std::string& archive, const std::string& host, const std::string& metric, const std::string& png,
             std::ostream& out) {
  const auto script = report::find_analysis_script(kHistoryPlotScript, report::self_executable("bwreport"));
  if (!script)
    throw RuntimeFailure(std::string("cannot find analysis/") + kHistoryPlotScript +
                         " (set BWSURVEY_ANALYSIS_DIR to the analysis folder of the source tree)");
  std::vector<std::string> argv = {report::python_interpreter(), *script, archive, "--node", host};
  if (!metric.empty()) {
    argv.push_back("--metric");
    argv.push_back(metric);
  }
  argv.push_back("--out");
  argv.push_back(png);
  out.flush();
  const int code = report::run_program(argv);
  return code == 0 ? kExitOk : code == kExitUsage ? kExitUsage : kExitFailure;
}

struct ShowOptions : TypedOptions {
  std::optional<std::string> node, metric, plot;
  std::uint64_t top = 0;
};

const OptionSchema<ShowOptions>& show_schema() {
  static const OptionSchema<ShowOptions> schema({
      report::bind_optional(
          text_option("node", "", "the host whose series to print (default: none; then --metric lists the movers)"),
          &ShowOptions::node),
      report::bind_optional(
          text_option("metric", "",
                      "a metric ('stream.triad' or 'stream.triad[double]'; default with --node: all of the node's)"),
          &ShowOptions::metric),
      bind_option(whole_option("top", "20", 1, 100000, "metrics",
                               "with --metric and no --node: how many movers to list"),
                  &ShowOptions::top),
      report::bind_optional(text_option("plot", "",
                                        "with --node: draw the series with the cohort's median band into this PNG "
                                        "(analysis/history_plot.py)"),
                            &ShowOptions::plot),
  });
  return schema;
}

int run_show(const report::CommandArgs& args, std::ostream& out) {
  po::options_description desc("Options");
  report::add_command_options(desc, show_schema().list());
  const report::ParsedCommand parsed = report::parse_command("history show", args, desc, 1, 1);
  if (parsed.help) {
    report::print_command_help(out, history_show_command(), desc);
    return kExitOk;
  }
  const ShowOptions o = show_schema().read(report::command_config(parsed.options), false);
  const std::string node = o.node.value_or("");
  const std::string metric = o.metric.value_or("");
  const long long top = static_cast<long long>(o.top);
  if (o.node && node.empty()) throw UsageError("--node is empty; allowed: a host name of the archive");
  if (node.empty() && metric.empty()) throw UsageError("give --node HOST or --metric M (see bwreport history show --help)");
  if (o.plot && node.empty()) throw UsageError("--plot needs --node HOST");
  if (o.plot && o.plot->empty()) throw UsageError("--plot is empty; allowed: a PNG path");
  const std::string& archive = parsed.positional[0];
  if (o.plot) check_plot_output(*o.plot, archive);
  SqliteDb db = open_archive_to_read(archive);
  require_archive_version(db);
  if (node.empty()) return show_movers(db, metric, static_cast<std::size_t>(top), out);
  if (o.plot) {
    // The same checks as the text (an unknown node or metric is one line, exit 2) before Python starts.
    std::ostringstream ignored;
    show_node(db, node, metric, ignored);
    return run_plot(archive, node, metric, *o.plot, out);
  }
  return show_node(db, node, metric, out);
}

}  // namespace

report::ReportCommand history_show_command() {
  return {"show",
          "history show ARCHIVE --node HOST [--metric M] [--plot OUT.png] | --metric M [--top N]   a node's series, "
          "or the nodes that moved most",
          [](const report::CommandArgs& args, std::ostream& out) {
            return report::with_command_name("history show", run_show, args, out);
          }};
}

}  // namespace bws::history
