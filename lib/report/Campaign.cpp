// bwreport campaign OUT --targets FILE SURVEY...: the surveys of a
// campaign's batches (jobs/campaign) in one file that every reader of a
// survey reads: /nodes/table and the node metric tables hold each node's
// rows from its latest batch (the later file on the command line), /flags
// the campaign's judgment (report/CampaignJudgement.hpp), /config the last
// batch's; /campaign/batches, /campaign/nodes (every target, covered or
// not) and /campaign/batch_effects say where each value came from; each
// batch file is kept whole under /batches/NN-<job>. OUT is written through
// core/FileGuard (a scratch file renamed into place).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <ostream>
#include <set>

#include <boost/program_options/options_description.hpp>

#include "catalog/Registry.hpp"
#include "core/Errors.hpp"
#include "core/FileGuard.hpp"
#include "core/Hostlist.hpp"
#include "core/PrintableText.hpp"
#include "core/Timestamps.hpp"
#include "h5/ResultFile.hpp"
#include "model/NodeMetrics.hpp"
#include "report/CampaignFile.hpp"
#include "report/CampaignJudgement.hpp"
#include "report/CommandOptions.hpp"
#include "report/FlagReport.hpp"
#include "report/ReportCommand.hpp"
#include "report/SurveyTables.hpp"

namespace po = boost::program_options;

namespace bws::report {
namespace {

bool contains_host(const std::vector<std::string>& hosts, const std::string& host) {
  return std::find(hosts.begin(), hosts.end(), host) != hosts.end();
}

struct CampaignOptions : TypedOptions {
  std::string targets;
  bool force = false;
};

const OptionSchema<CampaignOptions>& campaign_schema() {
  static const OptionSchema<CampaignOptions> schema({
      bind_option(text_option("targets", "",
                              "a file naming the campaign's target nodes, one host per line (required): a target no "
                              "batch surveyed is reported as not covered, never as healthy"),
                  &CampaignOptions::targets),
      bind_option(flag_option("force", false, "overwrite OUT when it exists"), &CampaignOptions::force),
  });
  return schema;
}

constexpr std::size_t kMaxTargetsBytes = 64 << 20;

std::vector<std::string> read_targets(const std::string& path) {
  const std::string text = read_input_file("--targets", path, kMaxTargetsBytes);
  std::vector<std::string> hosts;
  std::set<std::string> seen;
  std::size_t start = 0, line = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    ++line;
    std::string host = text.substr(start, end - start);
    start = end + 1;
    while (!host.empty() && (host.back() == ' ' || host.back() == '\t' || host.back() == '\r')) host.pop_back();
    host.erase(0, host.find_first_not_of(" \t"));
    if (host.empty() || host[0] == '#') continue;
    if (host.size() > 127 || host.find_first_of(" \t,") != std::string::npos ||
        std::any_of(host.begin(), host.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; }))
      throw UsageError("--targets '" + printable_text(path, 200) + "' line " + std::to_string(line) + ": '" +
                       printable_text(host, 100) + "'; allowed: one host name per line (no blanks or commas, at most 127 bytes)");
    if (seen.insert(host).second) hosts.push_back(host);
  }
  if (hosts.empty()) throw UsageError("--targets '" + printable_text(path, 200) + "' names no host; allowed: one host per line");
  return hosts;
}

struct Batch {
  std::string path, job, created, finished, status, schema;
  std::int64_t ranks = 0;
  std::string test_hooks;          // the root attribute: non-empty in a test build's run
  std::vector<std::string> hosts;  // /nodes/table's
  std::vector<std::string> kept;   // those it stands for (not in a later batch)
};

std::string batch_job(const h5::ResultReader& file, const std::string& path) {
  if (file.exists("/provenance") && file.has_attribute("/provenance", "slurm_job_id")) {
    const std::string id = file.attribute_text("/provenance", "slurm_job_id");
    if (!id.empty()) return id;
  }
  return std::filesystem::path(path).filename().string();
}

std::string root_text(const h5::ResultReader& file, const char* name) {
  return file.has_attribute("/", name) ? file.attribute_text("/", name) : std::string();
}

// The rows of `table` whose host is in `hosts`.
Table rows_of(const Table& table, const std::set<std::string>& hosts) {
  Table out(table.path(), table.columns(), table.samples_path());
  for (std::size_t r = 0; r < table.rows(); ++r)
    if (hosts.count(table.get_string(r, "host")))
      out.add_row_values(table.row(r), table.has_samples() ? table.samples(r) : std::vector<double>{});
  return out;
}

// Every batch read and checked before anything is written; a batch that
// did not complete is left out (named in `skipped`).
std::vector<Batch> read_batches(const std::vector<std::string>& inputs, std::vector<std::string>& skipped) {
  std::vector<Batch> batches;
  const auto major = [](const std::string& version) { return version.substr(0, version.find('.')); };
  for (const std::string& path : inputs) {
    const auto file = h5::ResultReader::open(path);
    require_one_survey(file, path, "campaign");
    if (!file.exists("/nodes/table"))
      throw UsageError("bwreport campaign: '" + printable_text(path, 200) + "' has no /nodes/table: not a survey file");
    Batch b{path, batch_job(file, path), root_text(file, "created_utc"), root_text(file, "finished_utc"),
            root_text(file, "status"), root_text(file, "schema_version"), 0, root_text(file, "test_hooks"), {}, {}};
    if (b.status != "complete") {
      skipped.push_back(printable_text(path, 200) + " (status " + printable_text(b.status, 40) + ")");
      continue;
    }
    if (!batches.empty() && major(b.schema) != major(batches.front().schema))
      throw UsageError("bwreport campaign: '" + printable_text(path, 200) + "' has schema " + printable_text(b.schema, 20) +
                       ", '" + printable_text(batches.front().path, 200) + "' " + printable_text(batches.front().schema, 20) +
                       "; allowed: batches of one major schema version");
    const Table nodes = file.read_table("nodes/table");
    for (std::size_t r = 0; r < nodes.rows(); ++r) b.hosts.push_back(nodes.get_string(r, "host"));
    b.ranks = file.has_attribute("/", "n_ranks") ? file.attribute_int("/", "n_ranks") : 0;
    batches.push_back(std::move(b));
  }
  if (batches.empty()) throw UsageError("bwreport campaign: no complete survey among the files; nothing to merge");
  return batches;
}

// Each node stands for its latest batch: the later file wins. Returns
// host -> batch index and fills each batch's `kept`.
std::map<std::string, std::size_t> assign_latest(std::vector<Batch>& batches) {
  std::map<std::string, std::size_t> latest;
  for (std::size_t i = 0; i < batches.size(); ++i)
    for (const std::string& h : batches[i].hosts) latest[h] = i;
  for (std::size_t i = 0; i < batches.size(); ++i)
    for (const std::string& h : batches[i].hosts)
      if (latest[h] == i && !contains_host(batches[i].kept, h)) batches[i].kept.push_back(h);
  return latest;
}

void append_same_columns(Table& into, const Table& rows, const std::string& batch_path) {
  if (into.columns().empty()) {
    into = rows;
    return;
  }
  if (!into.same_schema(rows))
    throw UsageError("bwreport campaign: /" + rows.path() + " of '" + printable_text(batch_path, 200) +
                     "' has other columns than the earlier batches'; allowed: batches of one bwsurvey version");
  into.append(rows);
}

// The survey-shaped part of the campaign file: each batch's rows of the
// nodes it stands for.
struct MergedTables {
  Table nodes;
  std::map<std::string, Table> metrics;  // path -> the batches' rows
  std::string config;                    // the last batch's
  std::vector<CampaignBatch> judged;
};

MergedTables merge_tables(const std::vector<Batch>& batches) {
  MergedTables m;
  for (const Batch& b : batches) {
    const auto file = h5::ResultReader::open(b.path);
    const std::set<std::string> kept(b.kept.begin(), b.kept.end());
    CampaignBatch cb{"job " + b.job, {}, file.exists("/flags") ? file.read_table("flags") : Table(), b.kept};
    for (const std::string& path : model::metric_tables(catalog::all_node_metrics())) {
      if (!file.exists("/" + path)) continue;
      Table rows = rows_of(file.read_table(path), kept);
      append_same_columns(m.metrics[path], rows, b.path);
      cb.tables.push_back(std::move(rows));
    }
    append_same_columns(m.nodes, rows_of(file.read_table("nodes/table"), kept), b.path);
    if (file.exists("/config")) m.config = file.read_text("/config");
    m.judged.push_back(std::move(cb));
  }
  return m;
}

// Where each value came from: /campaign/batches and /campaign/nodes (every
// target, and the hosts the batches surveyed beyond them).
struct Coverage {
  Table batches, nodes;
  std::vector<std::string> covered, not_covered;
  std::size_t covered_targets = 0;
};

Coverage coverage_of(const std::vector<Batch>& batches, const std::map<std::string, std::size_t>& latest,
                     const std::vector<std::string>& targets) {
  Coverage c{Table(kCampaignBatchesPath,
                   {int_column("batch"), text_column("job", 64), text_column("source_file", 1024),
                    text_column("created_utc", 32), text_column("finished_utc", 32), int_column("nodes"),
                    int_column("nodes_kept"), text_column("hosts", 1024)}),
             Table(kCampaignNodesPath, {text_column("host", 128), int_column("covered"), int_column("batch"),
                                        text_column("job", 64), text_column("created_utc", 32)}),
             {}, {}, 0};
  for (std::size_t i = 0; i < batches.size(); ++i)
    c.batches.add_row({{"batch", static_cast<std::int64_t>(i + 1)},
                       {"job", batches[i].job},
                       {"source_file", std::filesystem::absolute(batches[i].path).string()},
                       {"created_utc", batches[i].created},
                       {"finished_utc", batches[i].finished},
                       {"nodes", static_cast<std::int64_t>(batches[i].hosts.size())},
                       {"nodes_kept", static_cast<std::int64_t>(batches[i].kept.size())},
                       {"hosts", compress_hostlist(batches[i].hosts)}});
  std::vector<std::string> listed = targets;
  for (const auto& [host, i] : latest)
    if (!contains_host(listed, host)) listed.push_back(host);
  for (const std::string& host : listed) {
    const auto it = latest.find(host);
    const bool covered = it != latest.end();
    (covered ? c.covered : c.not_covered).push_back(host);
    c.nodes.add_row({{"host", host},
                     {"covered", static_cast<std::int64_t>(covered ? 1 : 0)},
                     {"batch", static_cast<std::int64_t>(covered ? it->second + 1 : 0)},
                     {"job", covered ? batches[it->second].job : std::string()},
                     {"created_utc", covered ? batches[it->second].created : std::string()}});
  }
  for (const std::string& t : targets) c.covered_targets += latest.count(t);
  return c;
}

// The root attributes: the last batch's build and plan, the campaign's span and coverage.
void set_campaign_root(h5::ResultFile& f, const std::vector<Batch>& batches, const Coverage& c, std::size_t targets,
                       const std::string& test_hooks) {
  const h5::ResultReader last = h5::ResultReader::open(batches.back().path);
  for (const char* name : {"tool_version", "git_commit", "compiler", "mpi_library", "hwloc_version", "tests"})
    if (last.has_attribute("/", name)) f.set_attribute("/", name, root_text(last, name));
  std::string first_created = batches.front().created, last_finished = batches.front().finished;
  std::int64_t ranks = 0;  // of all batches: what the campaign ran
  for (const Batch& b : batches) {
    first_created = std::min(first_created, b.created);
    last_finished = std::max(last_finished, b.finished);
    ranks += b.ranks;
  }
  f.set_attribute("/", "schema_version", batches.back().schema);
  f.set_attribute("/", "file_kind", std::string(kCampaignFileKind));
  f.set_attribute("/", "status", std::string("complete"));
  f.set_attribute("/", "created_utc", first_created);
  f.set_attribute("/", "finished_utc", last_finished);
  f.set_attribute("/", "merged_utc", utc_now_iso8601());
  f.set_attribute("/", "n_nodes", static_cast<std::int64_t>(c.covered.size()));
  f.set_attribute("/", "n_ranks", ranks);
  f.set_attribute("/", "n_targets", static_cast<std::int64_t>(targets));
  f.set_attribute("/", "n_batches", static_cast<std::int64_t>(batches.size()));
  f.set_attribute("/", "not_covered", compress_hostlist(c.not_covered));
  f.set_attribute("/", "test_hooks", test_hooks);
}

// Each batch file whole under /batches/NN-job-JOB; returns the batches' test hooks.
std::string copy_batches(h5::ResultFile& f, const std::vector<Batch>& batches) {
  std::string test_hooks;
  for (std::size_t i = 0; i < batches.size(); ++i) {
    std::string job = printable_text(batches[i].job, 40);
    std::replace(job.begin(), job.end(), '/', '_');
    char name[96];
    std::snprintf(name, sizeof name, "/batches/%02zu-job-%s", i + 1, job.c_str());
    f.copy_file_into(batches[i].path, name);
    const std::string& hook = batches[i].test_hooks;
    if (!hook.empty() && test_hooks.find(hook) == std::string::npos) test_hooks += (test_hooks.empty() ? "" : ",") + hook;
  }
  return test_hooks;
}

void print_campaign(std::ostream& out, const std::vector<Batch>& batches, const std::vector<std::string>& skipped,
                    const Coverage& c, std::size_t targets, const CampaignJudgement& judgement,
                    const model::NodeCohorts& cohorts, const std::string& test_hooks, const std::string& path) {
  for (const std::string& s : skipped) out << "skipped " << s << ": its nodes count as not covered unless a later batch holds them\n";
  for (std::size_t i = 0; i < batches.size(); ++i) {
    const std::size_t later = batches[i].hosts.size() - batches[i].kept.size();
    out << "batch " << i + 1 << ": job " << printable_text(batches[i].job, 40) << ", "
        << printable_text(compress_hostlist(batches[i].hosts), 400) << ", " << printable_text(batches[i].created, 40)
        << (later > 0 ? ", " + std::to_string(later) + " of its nodes in a later batch" : std::string()) << "\n";
  }
  out << "covered " << c.covered_targets << " of " << targets << " targets";
  if (!c.not_covered.empty())
    out << "; not covered (busy, failed or given up): " << printable_text(compress_hostlist(c.not_covered), 1000);
  out << "\n";
  if (judgement.lines.empty()) out << "batch effects: none\n";
  for (const std::string& line : judgement.lines) out << "batch effect: " << line << "\n";
  if (!test_hooks.empty()) out << "TEST HOOK ACTIVE in a batch: " << printable_text(test_hooks, 200) << "\n";
  for (const std::string& line : flag_summary_lines(judgement.flags, static_cast<long long>(c.covered.size()), cohorts))
    out << line << "\n";
  out << "campaign of " << batches.size() << (batches.size() == 1 ? " batch" : " batches") << " in "
      << printable_text(path) << "\n";
}

constexpr const char* kCampaignHelp =
    "Merges the survey files of a campaign's batches (jobs/campaign writes them) into OUT, a file that\n"
    "summary, flags, drain, undrain, verdict and export read as a survey: each node's values from its latest\n"
    "batch (the later FILE), every node judged within its hardware cohort across batches, a flag\n"
    "confirmed by the retest its batch ran; a batch whose median node falls short of the other batches'\n"
    "is named (a batch effect) and its nodes keep their own survey's verdicts. Exit 0 every target\n"
    "covered, 4 some not covered (named), 1 a file could not be read or written, 2 a usage error.\n";

int run_campaign(const CommandArgs& args, std::ostream& out) {
  po::options_description desc("Options");
  add_command_options(desc, campaign_schema().list());
  add_flag_override_options(desc);
  const ParsedCommand parsed = parse_command("campaign", args, desc, 2, -1);
  if (parsed.help) {
    print_command_help(out, campaign_command(), desc);
    out << kCampaignHelp;
    return 0;
  }
  const CampaignOptions o = read_command_options("campaign", campaign_schema(), parsed);
  if (o.targets.empty()) throw UsageError("--targets: required (a file naming the campaign's nodes, one per line)");
  const std::string& target = parsed.positional[0];
  const std::vector<std::string> inputs(parsed.positional.begin() + 1, parsed.positional.end());
  std::vector<std::string> read_paths = inputs;
  read_paths.push_back(o.targets);
  refuse_output_over_input("campaign", "OUT", target, read_paths);
  refuse_repeated_inputs("campaign", inputs, "each batch's file once");
  const OutputRules rules{"bwreport campaign: OUT", o.force, read_paths, OwnFile::Hdf5};
  check_output_file(target, rules);
  const std::vector<std::string> targets = read_targets(o.targets);
  std::vector<std::string> skipped;
  std::vector<Batch> batches = read_batches(inputs, skipped);
  const std::map<std::string, std::size_t> latest = assign_latest(batches);
  const MergedTables merged = merge_tables(batches);
  const model::NodeCohorts cohorts = model::node_cohorts(merged.nodes);
  const model::FlagSettings settings = flag_settings_for(h5::ResultReader::open(batches.back().path), parsed.options);
  const CampaignJudgement judgement = judge_campaign(merged.judged, settings, cohorts);
  const Coverage coverage = coverage_of(batches, latest, targets);

  AtomicFile output(target, rules);
  h5::ResultFile f = h5::ResultFile::create(output.scratch_path(), true);
  f.append(merged.nodes);
  for (const auto& [path, table] : merged.metrics) f.append(table);
  for (const Table* t : {&judgement.flags, &judgement.batch_effects, &coverage.batches, &coverage.nodes}) f.append(*t);
  if (!merged.config.empty()) f.write_text("/config", merged.config);
  const std::string test_hooks = copy_batches(f, batches);
  set_campaign_root(f, batches, coverage, targets.size(), test_hooks);
  f.close();
  output.commit();
  print_campaign(out, batches, skipped, coverage, targets.size(), judgement, cohorts, test_hooks, target);
  return coverage.not_covered.empty() ? 0 : kCampaignNotCovered;
}

}  // namespace

ReportCommand campaign_command() {
  return {"campaign",
          "campaign OUT --targets FILE SURVEY...   a campaign's batch surveys in one file, nodes judged across batches; "
          "exit 4 when a target is not covered",
          run_campaign};
}

}  // namespace bws::report
