#include "report/FileSummary.hpp"

#include <cstdio>
#include <optional>

#include "catalog/Registry.hpp"
#include "core/PrintableText.hpp"
#include "core/ResultColumns.hpp"
#include "h5/ResultFile.hpp"
#include "report/Outcome.hpp"
#include "report/RunSummary.hpp"

namespace bws::report {

namespace {

std::string count(std::int64_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

// Everything printed from the file goes through these: its text is escaped
// (a host name or attribute cannot add lines or send terminal escapes).
constexpr std::size_t kMaxPrintedAttribute = 4096;

std::string required_text(const h5::ResultReader& file, const std::string& object, const std::string& name) {
  return printable_text(file.attribute_text(object, name), kMaxPrintedAttribute);
}

std::string text_attribute(const h5::ResultReader& file, const std::string& object, const std::string& name) {
  return file.has_attribute(object, name) ? required_text(file, object, name) : std::string();
}

Table printable_table(const h5::ResultReader& file, const std::string& path) {
  return with_printable_text(file.read_table(path));
}

// Where the run was: the Slurm job, its nodes, every SLURM_* variable.
void add_provenance(const h5::ResultReader& file, std::vector<std::string>& lines) {
  if (!file.exists("/provenance")) return;
  const std::string job = text_attribute(file, "/provenance", "slurm_job_id");
  if (!job.empty()) {
    std::string line = "Slurm job " + job;
    const std::string partition = text_attribute(file, "/provenance", "slurm_partition");
    const std::string cluster = text_attribute(file, "/provenance", "slurm_cluster");
    if (!partition.empty()) line += ", partition " + partition;
    if (!cluster.empty()) line += ", cluster " + cluster;
    const std::string nodes = text_attribute(file, "/provenance", "slurm_nodes");
    if (!nodes.empty()) line += ", nodes " + nodes;
    lines.push_back(line);
  } else {
    lines.push_back("not run under Slurm (no SLURM_JOB_ID); host " + text_attribute(file, "/provenance", "host"));
  }
  std::vector<std::string> slurm;
  for (const std::string& name : file.attribute_names("/provenance"))
    if (name.rfind("SLURM_", 0) == 0) slurm.push_back("  " + printable_text(name, 200) + "=" + required_text(file, "/provenance", name));
  if (!slurm.empty()) {
    lines.push_back("SLURM_* variables of the job (/provenance):");
    lines.insert(lines.end(), slurm.begin(), slurm.end());
  }
  if (file.has_attribute("/", "resumes"))
    lines.push_back("resumed " + count(file.attribute_int("/", "resumes"), "time") + " (--resume; see /provenance)");
}

// The checks of a file, from its /checks table (none: no line).
std::optional<Outcome> checks_of(const h5::ResultReader& file) {
  if (!file.exists(std::string("/").append(kChecksPath))) return std::nullopt;
  Outcome outcome;
  outcome.account(printable_table(file, kChecksPath));
  return outcome;
}

void add_lines(std::vector<std::string>& lines, std::vector<std::string> more) {
  for (std::string& line : more) lines.push_back(std::move(line));
}

std::vector<std::string> summarize_merged(const h5::ResultReader& file, const std::string& path) {
  std::vector<std::string> lines;
  const std::vector<std::string> runs = file.exists("/runs") ? file.list("/runs") : std::vector<std::string>{};
  lines.push_back(printable_text(path) + ": scaling study of " + count(static_cast<std::int64_t>(runs.size()), "run") +
                  " (bwreport merge), created " + text_attribute(file, "/", "created_utc"));
  for (const std::string& run : runs) {
    const std::string group = "/runs/" + run;
    std::string line = "  " + printable_text(run, 200) + ": ";
    if (file.has_attribute(group, "n_nodes")) line += count(file.attribute_int(group, "n_nodes"), "node") + ", ";
    if (file.has_attribute(group, "n_ranks")) line += count(file.attribute_int(group, "n_ranks"), "rank") + ", ";
    line += "status " + text_attribute(file, group, "status");
    const std::string job = text_attribute(file, group + "/provenance", "slurm_job_id");
    if (!job.empty()) line += ", Slurm job " + job;
    line += ", from " + text_attribute(file, group, "source_file");
    lines.push_back(line);
  }
  if (file.exists("/scaling/fit")) {
    const Table fit = printable_table(file, "scaling/fit");
    for (std::size_t r = 0; r < fit.rows(); ++r) {
      char buf[320];
      std::snprintf(buf, sizeof buf,
                    "scaling: b_eff = %.4g GB/s x n (least squares through the origin, R^2 %.3f); reference %.4g "
                    "GB/s per rank (%s); E_fit %.3f (min %.2f): %s",
                    fit.get_double(r, "slope_Bps_per_rank") / 1e9, fit.get_double(r, "r2"),
                    fit.get_double(r, "reference_per_rank_Bps") / 1e9, fit.get_string(r, "reference_run").c_str(),
                    fit.get_double(r, "fit_efficiency"), fit.get_double(r, "min_efficiency"),
                    fit.get_int(r, "passed") ? "passed" : "FAILED");
      lines.push_back(buf);
    }
  } else {
    lines.push_back("no scaling verdict yet: run bwreport scaling " + printable_text(path));
  }
  SummaryRecord checks;
  checks.outcome = checks_of(file);
  add_lines(lines, summary_lines(checks));
  return lines;
}

}  // namespace

std::vector<std::string> summarize_file(const std::string& path) {
  const auto file = h5::ResultReader::open(path);
  if (text_attribute(file, "/", "file_kind") == "scaling-study") return summarize_merged(file, path);
  std::vector<std::string> lines;
  lines.push_back(printable_text(path) + ": bwsurvey " + required_text(file, "/", "tool_version") + ", status " +
                  required_text(file, "/", "status") + ", " + count(file.attribute_int("/", "n_nodes"), "node") + ", " +
                  count(file.attribute_int("/", "n_ranks"), "rank") + ", created " +
                  required_text(file, "/", "created_utc"));
  if (const std::string hooks = text_attribute(file, "/", "test_hooks"); !hooks.empty())
    lines.push_back("TEST HOOK ACTIVE: " + hooks + " (results were altered on purpose by a test build)");
  if (required_text(file, "/", "status") != "complete") {
    lines.push_back("completed phases: " + text_attribute(file, "/", "completed_phases") + " (of " +
                    text_attribute(file, "/", "tests") + "); finish it with bwsurvey --resume " + printable_text(path));
    const std::string reason = text_attribute(file, "/", "abort_reason");
    if (!reason.empty()) lines.push_back("aborted: " + reason);
  }
  add_provenance(file, lines);
  // The same summary as at the end of the run, from the file's tables.
  SummaryRecord record;
  for (const CatalogEntry& entry : catalog::benchmark_registry()) {
    std::vector<Table> tables;
    for (const std::string& table : summary_tables(entry))
      if (file.exists("/" + table)) tables.push_back(printable_table(file, table));
    if (!tables.empty()) record.reports.emplace_back(&entry, std::move(tables));
  }
  if (file.exists("/flags")) {
    record.flags = printable_table(file, "flags");
    if (file.exists("/nodes/table")) record.nodes = printable_table(file, "nodes/table");
  }
  record.n_nodes = file.attribute_int("/", "n_nodes");
  record.outcome = checks_of(file);
  record.file = printable_text(path);
  add_lines(lines, summary_lines(record));
  return lines;
}

}  // namespace bws::report
