#include "history/NodeVerdict.hpp"

#include <boost/program_options/options_description.hpp>

#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <ostream>

#include "core/Errors.hpp"
#include "core/PrintableText.hpp"
#include "h5/ResultFile.hpp"
#include "history/ArchiveAccess.hpp"
#include "history/ArchiveStore.hpp"
#include "history/ArchiveVerdict.hpp"
#include "history/SurveyIndex.hpp"
#include "model/NodeFlags.hpp"
#include "report/CampaignFile.hpp"
#include "report/CommandOptions.hpp"
#include "report/Drain.hpp"
#include "report/SurveyTables.hpp"

namespace po = boost::program_options;

namespace bws::history {
namespace {

struct VerdictOptions : TypedOptions {
  std::string node;
  double max_age_days = -1;
};

const OptionSchema<VerdictOptions>& verdict_schema() {
  static const OptionSchema<VerdictOptions> schema({
      bind_option(text_option("node", "", "the host whose verdict is read (required)"), &VerdictOptions::node),
      bind_option(real_option("max-age", "-1", -1, 36500, "days",
                              "a survey older than this many days is too old (exit 5); -1: no limit"),
                  &VerdictOptions::max_age_days),
  });
  return schema;
}

std::string flag_text(const Table& flags, std::size_t r) {
  const std::string unit = flags.get_string(r, "unit");
  std::string text = printable_text(flags.get_string(r, "metric"), 80) + " " +
                     report::drain_value_text(flags.get_double(r, "value"), unit);
  const double pct = flags.get_double(r, "percent_of_median");
  if (std::isfinite(pct)) {
    char buf[48];
    std::snprintf(buf, sizeof buf, ", %.0f%% of cohort median", pct);
    text += buf;
  } else if (flags.has_column("rule") && flags.get_string(r, "rule") == "floor") {
    text += (unit == "s" ? ", above limit " : ", below floor ") +
            report::drain_value_text(flags.get_double(r, "threshold"), unit);
  }
  return text;
}

}  // namespace

NodeVerdict node_verdict(const std::string& host, const SurveyFacts& survey, const Table* flags,
                         std::int64_t now_unix_s, double max_age_days) {
  const std::string shown = printable_text(host, 128);
  const std::string of = "survey " + printable_text(survey.id, 80) + " of " + printable_text(survey.created_utc, 40);
  if (max_age_days >= 0 && static_cast<double>(now_unix_s - survey.created_unix_s) > max_age_days * 86400) {
    char days[32];
    std::snprintf(days, sizeof days, "%g", max_age_days);
    return {kVerdictTooOld, shown + ": too old: " + of + " is older than " + days + " days (--max-age)"};
  }
  if (!survey.has_node)
    return {kVerdictNotSurveyed, shown + ": not surveyed in " + (survey.where.empty() ? of : survey.where)};
  std::vector<std::size_t> confirmed;
  std::string unconfirmed;  // flags no retest judged (none ran, or an archive of version 1 kept no status)
  for (std::size_t r = 0; flags && r < flags->rows(); ++r) {
    if (flags->get_string(r, "host") != host) continue;
    const std::string status =
        flags->has_column("status") ? flags->get_string(r, "status") : std::string(model::kFlagNotRetested);
    if (status == model::kFlagConfirmed) confirmed.push_back(r);
    else if (status == model::kFlagNotRetested)
      unconfirmed += (unconfirmed.empty() ? "" : ", ") + printable_text(flags->get_string(r, "metric"), 80);
  }
  // Not acted on, as `bwreport drain` does not drain them unless asked: a
  // health check drains on evidence a retest confirmed.
  if (confirmed.empty())
    return {kVerdictHealthy, shown + ": healthy in " + of +
                                 (unconfirmed.empty() ? "" : " (flagged without a retest, not acted on: " + unconfirmed + ")")};
  std::size_t worst = confirmed.front();
  for (std::size_t r : confirmed)
    if (report::flag_severity(*flags, r) > report::flag_severity(*flags, worst)) worst = r;
  std::string line = shown + ": flagged: " + flag_text(*flags, worst) + ", confirmed by the retest";
  if (confirmed.size() > 1) line += " (+" + std::to_string(confirmed.size() - 1) + " more)";
  return {kVerdictFlagged, line + "; " + of};
}

namespace {

int run_verdict(const report::CommandArgs& args, std::ostream& out) {
  po::options_description desc("Options");
  report::add_command_options(desc, verdict_schema().list());
  const report::ParsedCommand parsed = report::parse_command("verdict", args, desc, 1, 1);
  if (parsed.help) {
    report::print_command_help(out, verdict_command(), desc);
    out << "Reads, never measures, HOST's standing verdict in a survey FILE or a history archive (its latest\n"
           "survey of HOST), one line on stdout, and exits:\n"
           "  0 healthy (surveyed, no confirmed flag)   3 flagged (confirmed by the survey's retest)\n"
           "  4 not surveyed in FILE                     5 too old (the survey is older than --max-age days)\n"
           "  1 FILE could not be read                   2 a usage error\n";
    return 0;
  }
  const VerdictOptions o = report::read_command_options("verdict", verdict_schema(), parsed);
  if (o.node.empty()) throw UsageError("--node: required (the host whose verdict is read)");
  const std::string& path = parsed.positional[0];
  if (is_sqlite_file(path)) {
    SqliteDb db = open_archive_to_read(path);
    const int version = require_archive_version(db);
    const ArchivedStanding standing = archived_standing(db, version, o.node);
    SurveyFacts facts = standing.survey;
    facts.where = "archive '" + printable_text(path, 200) + "'";
    const NodeVerdict v = node_verdict(o.node, facts, &standing.flags, std::time(nullptr),
                                       facts.has_node ? o.max_age_days : -1);
    out << v.line << "\n";
    return v.code;
  }
  const auto file = h5::ResultReader::open(path);
  report::require_survey_file(file, path, "verdict");
  SurveyFacts facts;
  facts.created_utc = file.has_attribute("/", "created_utc") ? file.attribute_text("/", "created_utc") : "";
  // A campaign: the node's own batch says when it was measured; a target
  // no batch covered is not surveyed, never healthy.
  const bool campaign = report::is_campaign_file(file);
  const report::CampaignNode batch = campaign ? report::campaign_node(file, o.node) : report::CampaignNode{};
  if (batch.covered) facts.created_utc = batch.created_utc;
  const auto created = parse_utc_seconds(facts.created_utc);
  if (!created)
    throw UsageError("'" + printable_text(path, 200) + "' has no valid root attribute 'created_utc': not a complete "
                     "bwsurvey survey file");
  facts.created_unix_s = *created;
  facts.id = file.exists("/provenance") && file.has_attribute("/provenance", "slurm_job_id")
                 ? file.attribute_text("/provenance", "slurm_job_id")
                 : std::string();
  if (facts.id.empty()) facts.id = std::filesystem::path(path).filename().string();
  if (campaign) {
    facts.id = batch.covered ? printable_text(batch.job, 40) + " (campaign '" + printable_text(path, 200) + "')" : facts.id;
    facts.where = "campaign '" + printable_text(path, 200) + "'" +
                  (batch.listed ? " (a target no batch covered: busy or failed)" : "");
  } else if (file.exists("/nodes/table")) {
    const Table nodes = file.read_table("nodes/table");
    for (std::size_t r = 0; r < nodes.rows() && !facts.has_node; ++r) facts.has_node = nodes.get_string(r, "host") == o.node;
  }
  const bool has_flags = file.exists(std::string("/") + model::kFlagsPath);
  const Table flags = has_flags ? file.read_table(model::kFlagsPath) : Table();
  if (campaign) facts.has_node = batch.covered;
  const NodeVerdict v = node_verdict(o.node, facts, has_flags ? &flags : nullptr, std::time(nullptr),
                                     campaign && !batch.covered ? -1 : o.max_age_days);
  out << v.line << "\n";
  return v.code;
}

}  // namespace

report::ReportCommand verdict_command() {
  return {"verdict",
          "verdict FILE --node HOST [--max-age DAYS]   HOST's standing verdict, one line; exit 0 healthy, 3 flagged, "
          "4 not surveyed, 5 too old",
          run_verdict};
}

}  // namespace bws::history
