// bwreport drain FILE: Slurm drain commands for the nodes whose flags the
// survey's retest confirmed, printed on stdout and never executed; the
// counts go to stderr so that `bwreport drain f.h5 | sh` runs the commands
// alone, for an admin who chooses to.
#include <map>

#include <boost/program_options/options_description.hpp>

#include "report/CampaignFile.hpp"
#include "report/CommandOptions.hpp"
#include "report/Drain.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <ostream>
#include <string_view>

#include "core/Errors.hpp"
#include "core/PrintableText.hpp"
#include "h5/ResultFile.hpp"
#include "model/NodeFlags.hpp"
#include "report/SurveyTables.hpp"

namespace po = boost::program_options;

namespace bws::report {
namespace {

constexpr std::size_t kMaxNodeName = 128;
constexpr std::size_t kMaxJobId = 20;     // job ids are digits, "123_4" for an array task
constexpr std::size_t kMinMetric = 16;    // shorter than this, "+N more" goes first

bool is_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// What a reason may hold: nothing a shell expands ($ ` \ " ' !), even
// unquoted inside a sinfo or pbsnodes listing, and nothing scontrol splits on.
bool is_reason_char(char c) {
  if (is_alnum(c)) return true;
  for (char ok : std::string_view("._-[],+%: /"))
    if (c == ok) return true;
  return false;
}

std::string sanitized(const std::string& text) {
  std::string s = text;
  for (char& c : s)
    if (!is_reason_char(c)) c = '_';
  return s;
}

// The text cut to n characters in the middle, a "[group]" suffix kept
// whole where it leaves 4 characters of the head: "stream..[double]".
std::string elided(const std::string& text, std::size_t n) {
  if (text.size() <= n) return text;
  if (n < 6) return text.substr(0, n);
  std::size_t tail = (n - 2) / 2;
  const std::size_t bracket = text.rfind('[');
  if (bracket != std::string::npos && text.back() == ']' && text.size() - bracket + 2 + 4 <= n)
    tail = text.size() - bracket;
  const std::size_t head = n - 2 - tail;
  return text.substr(0, head) + ".." + text.substr(text.size() - tail);
}

// A host as stderr may show it: control characters escaped (the one helper
// every printer of file text uses), long names cut.
std::string printable(const std::string& text) { return printable_text(text, 200); }

// Cells of a column that older files may lack.
std::string text_cell(const Table& t, std::size_t r, const char* column) {
  return t.has_column(column) ? t.get_string(r, column) : std::string();
}
double real_cell(const Table& t, std::size_t r, const char* column) {
  return t.has_column(column) ? t.get_double(r, column) : std::numeric_limits<double>::quiet_NaN();
}

std::string status_of(const Table& flags, std::size_t r) {
  return flags.has_column("status") ? flags.get_string(r, "status") : std::string(model::kFlagNotRetested);
}


std::string percent_text(double pct) {
  char buf[32];
  if (std::fabs(pct) < 1e6)
    std::snprintf(buf, sizeof buf, "%lld%%", static_cast<long long>(std::llround(pct)));
  else
    std::snprintf(buf, sizeof buf, "%.2g%%", pct);
  return buf;
}

// What the worst flag says after its metric: " 4.6GB/s 51% of cohort median",
// " 67.2GB/s below floor 80GB/s" (a floor alone has no cohort to compare
// with), " configuration" (memory.*: no measured value).
std::string flag_words(const Table& flags, std::size_t r) {
  const std::string unit = text_cell(flags, r, "unit");
  const std::string value = drain_value_text(real_cell(flags, r, "value"), unit);
  if (value == "nan") return " configuration";
  if (text_cell(flags, r, "rule") == "floor")
    return " " + value + (unit == "s" ? " above limit " : " below floor ") +
           drain_value_text(real_cell(flags, r, "threshold"), unit);
  const double pct = real_cell(flags, r, "percent_of_median");
  if (!std::isfinite(pct)) return " " + value;
  return " " + value + " " + percent_text(pct) + " of cohort median";
}

// The reason naming one flag (and `more` other metrics), at most kDrainReasonMax characters.
std::string drain_reason(const std::string& metric, const std::string& words, std::size_t more, bool unretested,
                         const std::string& job) {
  const std::string head = std::string(kDrainReasonPrefix) + (unretested ? " unretested " : " ");
  const std::string middle = sanitized(words) + " " + job;
  std::string tail = more ? " +" + std::to_string(more) + " more" : "";
  std::string name = sanitized(metric);
  auto room = [&] {
    const std::size_t fixed = head.size() + middle.size() + tail.size();
    return fixed < kDrainReasonMax ? kDrainReasonMax - fixed : 0;
  };
  if (name.size() > room()) {
    if (room() >= kMinMetric) {
      name = elided(name, room());
    } else {
      tail.clear();  // "+N more" gives way before the metric does
      name = elided(name, std::max<std::size_t>(room(), 1));
    }
  }
  std::string reason = head + name + middle + tail;
  if (reason.size() > kDrainReasonMax) reason.resize(kDrainReasonMax);  // only when the value alone is absurd
  return reason;
}

}  // namespace

std::string count_text(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

double flag_severity(const Table& flags, std::size_t r) {
  const double pct = real_cell(flags, r, "percent_of_median");
  if (!std::isfinite(pct) || pct <= 0) return -1;
  return text_cell(flags, r, "unit") == "s" ? pct / 100.0 : 100.0 / pct;
}

bool is_valid_node_name(const std::string& host) {
  if (host.empty() || host.size() > kMaxNodeName) return false;
  return std::all_of(host.begin(), host.end(), [](char c) { return is_alnum(c) || c == '.' || c == '_' || c == '-'; });
}

std::string drain_value_text(double value, const std::string& unit) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  struct Scale {
    double factor;
    const char* suffix;
  };
  static const Scale kRates[] = {{1e12, "TB/s"}, {1e9, "GB/s"}, {1e6, "MB/s"}, {1e3, "kB/s"}, {1, "B/s"}};
  static const Scale kTimes[] = {{1, "s"}, {1e-3, "ms"}, {1e-6, "us"}, {1e-9, "ns"}};
  const Scale* scales = nullptr;
  std::size_t n = 0;
  if (unit == "B/s") {
    scales = kRates;
    n = std::size(kRates);
  } else if (unit == "s") {
    scales = kTimes;
    n = std::size(kTimes);
  }
  char buf[48];
  if (!scales) {
    std::snprintf(buf, sizeof buf, "%.3g", value);
    return buf + sanitized(unit);
  }
  // The largest scale the value reaches (after rounding to 3 digits), else the smallest.
  const Scale* pick = &scales[n - 1];
  for (std::size_t i = 0; i < n; ++i)
    if (std::fabs(value) >= 0.9995 * scales[i].factor) {
      pick = &scales[i];
      break;
    }
  std::snprintf(buf, sizeof buf, "%.3g", value / pick->factor);
  return buf + std::string(pick->suffix);
}

std::vector<std::string> drain_lines(const Table& flags, const std::string& job_id, bool include_unconfirmed,
                                     std::vector<std::string>& refusals, Scheduler scheduler,
                                     const std::map<std::string, std::string>& job_of_host) {
  for (const char* column : {"host", "metric"})
    if (!flags.has_column(column))
      throw UsageError(std::string("bwreport drain: the /flags table has no '") + column + "' column");

  // The job id as one word ("4242", "4242_7"); none: "nojob".
  const auto job_words = [](std::string job) {
    job.erase(0, job.find_first_not_of(" \t\r\n"));
    job.erase(job.find_last_not_of(" \t\r\n") + 1);
    for (char& c : job)
      if (!is_alnum(c) && c != '.' && c != '_' && c != '-' && c != '+') c = '_';
    return job.empty() ? std::string("nojob") : "job " + elided(job, kMaxJobId);
  };
  const std::string survey_job = job_words(job_id);

  std::vector<std::string> hosts;  // in order of first appearance; a slow link or uplink is no node's fault
  for (std::size_t r = 0; r < flags.rows(); ++r)
    if (!model::is_link_subject(flags.get_string(r, "host")) &&
        std::find(hosts.begin(), hosts.end(), flags.get_string(r, "host")) == hosts.end())
      hosts.push_back(flags.get_string(r, "host"));

  std::vector<std::string> lines;
  for (const std::string& host : hosts) {
    std::vector<std::size_t> confirmed, unretested;
    for (std::size_t r = 0; r < flags.rows(); ++r) {
      if (flags.get_string(r, "host") != host) continue;
      const std::string status = status_of(flags, r);
      if (status == model::kFlagConfirmed) confirmed.push_back(r);
      else if (status == model::kFlagNotRetested && include_unconfirmed) unretested.push_back(r);
    }
    if (confirmed.empty() && unretested.empty()) continue;
    if (!is_valid_node_name(host)) {
      refusals.push_back("bwreport drain: refused host '" + printable(host) +
                         "': not a valid Slurm node name (letters, digits, '.', '_' and '-' only); no command for it");
      continue;
    }
    // The worst flag of the preferred group; ties keep the first row.
    const std::vector<std::size_t>& group = confirmed.empty() ? unretested : confirmed;
    std::size_t worst = group.front();
    for (std::size_t r : group)
      if (flag_severity(flags, r) > flag_severity(flags, worst)) worst = r;
    const std::string& metric = flags.get_string(worst, "metric");
    std::vector<std::string> others;  // the host's other flagged metrics
    for (const auto* rows : {&confirmed, &unretested})
      for (std::size_t r : *rows) {
        const std::string& m = flags.get_string(r, "metric");
        if (m != metric && std::find(others.begin(), others.end(), m) == others.end()) others.push_back(m);
      }
    const auto own = job_of_host.find(host);  // a campaign: the node's own batch job
    const std::string job = own == job_of_host.end() ? survey_job : job_words(own->second);
    const std::string reason = drain_reason(metric, flag_words(flags, worst), others.size(), confirmed.empty(), job);
    lines.push_back(drain_command_line(scheduler, host, reason));
  }
  return lines;
}

DrainCounts count_drain_flags(const Table& flags) {
  DrainCounts c;
  c.has_status = flags.has_column("status");
  std::vector<std::string> confirmed_hosts;
  for (std::size_t r = 0; r < flags.rows(); ++r) {
    if (flags.has_column("host") && model::is_link_subject(flags.get_string(r, "host"))) continue;  // never drained
    const std::string status = status_of(flags, r);
    if (status == model::kFlagConfirmed) {
      const std::string& host = flags.get_string(r, "host");
      if (std::find(confirmed_hosts.begin(), confirmed_hosts.end(), host) == confirmed_hosts.end())
        confirmed_hosts.push_back(host);
    } else if (status == model::kFlagTransient) {
      ++c.transient_flags;
    } else if (status == model::kFlagNotRetested) {
      ++c.unretested_flags;
    } else {
      ++c.other_flags;
    }
  }
  c.confirmed_nodes = confirmed_hosts.size();
  return c;
}

std::string drain_note(const DrainCounts& c, std::size_t printed, std::size_t refused, bool include_unconfirmed,
                       const std::string& path) {
  std::string note = "bwreport drain: ";
  if (printed == 0) note += "nothing to drain in " + path + ": ";
  note += count_text(c.confirmed_nodes, "node", "nodes") + " confirmed, " +
          count_text(c.transient_flags, "flag", "flags") + " not confirmed (transient), " +
          std::to_string(c.unretested_flags) + " not retested";
  if (c.unretested_flags > 0) note += include_unconfirmed ? " (included)" : " (--unconfirmed prints them)";
  if (!c.has_status) note += " (its /flags has no retest status)";
  if (c.other_flags > 0) note += ", " + std::to_string(c.other_flags) + " of an unknown status (ignored)";
  note += "; ";
  if (refused > 0) note += count_text(refused, "host", "hosts") + " refused, ";
  note += "nothing was executed";
  return note;
}

namespace {

struct DrainOptions : TypedOptions {
  bool unconfirmed = false;
  std::string format = "slurm";
};

const OptionSchema<DrainOptions>& drain_schema() {
  static const OptionSchema<DrainOptions> schema(
      {bind_option(flag_option("unconfirmed", false,
                               "also drain the nodes whose flags were not retested (reason \"bwsurvey: unretested "
                               "...\"); flags a retest did not confirm (transient) are never printed"),
                   &DrainOptions::unconfirmed),
       bind_option(scheduler_format_option("drain"), &DrainOptions::format)});
  return schema;
}

}  // namespace

int run_drain(const CommandArgs& args, std::ostream& out, std::ostream& err) {
  po::options_description desc("Options");
  add_command_options(desc, drain_schema().list());
  const ParsedCommand parsed = parse_command("drain", args, desc, 1, 1);
  if (parsed.help) {
    print_command_help(out, drain_command(), desc);
    out << "Prints, never runs, one line per node with a confirmed flag in the file's /flags, in table order:\n"
           "  slurm: scontrol update NodeName=HOST State=DRAIN 'Reason=bwsurvey: METRIC VALUE PCT% of cohort "
           "median job JOBID'\n"
           "  flux:  flux resource drain HOST 'bwsurvey: ...'\n"
           "  pbs:   pbsnodes -o -N 'bwsurvey: ...' HOST\n"
           "Every reason begins \"bwsurvey:\" (bwreport undrain resumes only such drains). It names the node's\n"
           "worst flag (lowest % of the median for a bandwidth, highest for a time; a floor flag names its floor:\n"
           "\"VALUE below floor FLOOR\") and adds \"+N more\" for its other flagged metrics; JOBID is the survey's\n"
           "/provenance slurm_job_id, \"nojob\" for a run outside Slurm. It stays under 80 characters (slurmdbd\n"
           "keeps 255, sinfo -R shows 20): a long metric name is cut in the middle, then \"+N more\" dropped.\n"
           "A host that is not a valid node name (letters, digits, '.', '_', '-') is refused on stderr and\n"
           "skipped; every other word is single-quoted for sh where it is not plain.\n"
           "The counts go to stderr, so `bwreport drain FILE | sh` runs the commands alone. Exit 0 also when\n"
           "nothing is confirmed and for a file without /flags (a survey that ran no node checks): stdout is\n"
           "then empty and stderr says why.\n";
    return 0;
  }
  const std::string& path = parsed.positional[0];
  const DrainOptions options = read_command_options("drain", drain_schema(), parsed);
  const bool include_unconfirmed = options.unconfirmed;
  const Scheduler scheduler = scheduler_named(options.format, "--format");
  const auto file = h5::ResultReader::open(path);
  require_survey_file(file, path, "drain");
  if (!file.exists(std::string("/") + model::kFlagsPath)) {
    err << "bwreport drain: " << printable(path) << " has no /flags (the survey ran no node checks); nothing was executed"
        << std::endl;
    return 0;
  }
  const Table flags = file.read_table(model::kFlagsPath);
  const std::string job = file.exists("/provenance") && file.has_attribute("/provenance", "slurm_job_id")
                              ? file.attribute_text("/provenance", "slurm_job_id")
                              : std::string();
  std::map<std::string, std::string> job_of_host;
  if (is_campaign_file(file) && file.exists(std::string("/") + kCampaignNodesPath)) {
    const Table nodes = file.read_table(kCampaignNodesPath);
    for (std::size_t r = 0; r < nodes.rows(); ++r) job_of_host[nodes.get_string(r, "host")] = nodes.get_string(r, "job");
  }
  std::vector<std::string> refusals;
  const std::vector<std::string> lines =
      drain_lines(flags, job, include_unconfirmed, refusals, scheduler, job_of_host);
  for (const std::string& line : lines) out << line << "\n";
  out.flush();
  for (const std::string& refusal : refusals) err << refusal << "\n";
  // The drain lines are made of checked names and sanitized text only
  // (is_valid_node_name, is_reason_char); the note quotes FILE escaped.
  err << drain_note(count_drain_flags(flags), lines.size(), refusals.size(), include_unconfirmed, printable(path))
      << std::endl;
  return 0;
}

ReportCommand drain_command() {
  return {"drain", "drain FILE [--unconfirmed] [--format slurm|flux|pbs]   drain lines for the nodes with confirmed flags (never run)",
          [](const CommandArgs& args, std::ostream& out) { return run_drain(args, out, std::cerr); }};
}

}  // namespace bws::report
