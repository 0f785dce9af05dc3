#include "report/Undrain.hpp"

#include <boost/program_options/options_description.hpp>

#include <cstdio>
#include <iostream>
#include <iterator>
#include <ostream>
#include <sys/wait.h>

#include "core/Errors.hpp"
#include "core/FileGuard.hpp"
#include "core/PrintableText.hpp"
#include "h5/ResultFile.hpp"
#include "model/NodeFlags.hpp"
#include "report/CommandOptions.hpp"
#include "report/Drain.hpp"
#include "report/SurveyTables.hpp"

namespace po = boost::program_options;

namespace bws::report {
namespace {

// The scheduler's own listing when --reasons is not given.
constexpr const char* kScontrolListing = "scontrol show node --oneliner";
constexpr std::size_t kMaxListingBytes = 64u << 20;  // 10^5 nodes of ~600 bytes each

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& w : words) {
    if (!text.empty()) text += ' ';
    text += printable_text(w, 80);
  }
  return text;
}

// The output of `command`, or a RuntimeFailure naming it and --reasons.
std::string listing_of(const std::string& command) {
  FILE* pipe = ::popen((command + " 2>/dev/null").c_str(), "r");
  if (!pipe) throw RuntimeFailure("bwreport undrain: cannot run '" + command + "'; give the reasons with --reasons FILE");
  std::string text;
  char buffer[65536];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0 && text.size() < kMaxListingBytes;)
    text.append(buffer, n);
  const int status = ::pclose(pipe);
  if (status != 0)
    throw RuntimeFailure("bwreport undrain: '" + command + "' failed (status " + std::to_string(status) +
                         "); give the current reasons with --reasons FILE (or - for stdin)");
  return text;
}

struct UndrainOptions : TypedOptions {
  std::string reasons;
  std::string format = "slurm";
};

const OptionSchema<UndrainOptions>& undrain_schema() {
  static const OptionSchema<UndrainOptions> schema(
      {bind_option(text_option("reasons", "",
                               "the nodes' current drain reasons: a file (or - for stdin) holding the output of "
                               "`scontrol show node`, `sinfo -R`, or lines \"HOST REASON...\"; default: the output "
                               "of `scontrol show node --oneliner` (--format slurm only)"),
                   &UndrainOptions::reasons),
       bind_option(scheduler_format_option("resume"), &UndrainOptions::format)});
  return schema;
}

}  // namespace

SurveyStanding survey_standing(const Table* nodes, const Table* flags) {
  SurveyStanding s;
  if (nodes && nodes->has_column("host"))
    for (std::size_t r = 0; r < nodes->rows(); ++r) s.surveyed.insert(nodes->get_string(r, "host"));
  if (!flags || !flags->has_column("host")) return s;
  s.judged = true;
  for (std::size_t r = 0; r < flags->rows(); ++r) {
    const std::string host = flags->get_string(r, "host");
    if (model::is_link_subject(host)) continue;
    const std::string status =
        flags->has_column("status") ? flags->get_string(r, "status") : std::string(model::kFlagNotRetested);
    if (status == model::kFlagConfirmed || status == model::kFlagNotRetested) s.flagged.insert(host);
  }
  return s;
}

UndrainPlan plan_undrain(const std::vector<NodeReason>& reasons, const SurveyStanding& standing, Scheduler scheduler) {
  UndrainPlan plan;
  std::set<std::string> seen;
  for (const NodeReason& r : reasons) {
    if (!seen.insert(r.host).second) continue;
    if (!is_bwsurvey_reason(r.reason)) {
      ++plan.others;
    } else if (!is_valid_node_name(r.host)) {
      plan.refusals.push_back("bwreport undrain: refused host '" + printable_text(r.host, 200) +
                              "': not a valid node name (letters, digits, '.', '_' and '-' only); no command for it");
    } else if (standing.healthy(r.host)) {
      plan.lines.push_back(resume_command_line(scheduler, r.host));
    } else if (standing.judged && standing.surveyed.count(r.host)) {
      plan.kept_flagged.push_back(r.host);
    } else {
      plan.kept_unknown.push_back(r.host);
    }
  }
  return plan;
}

std::string undrain_note(const UndrainPlan& plan, const std::string& path) {
  std::string note = "bwreport undrain: " + count_text(plan.lines.size(), "node", "nodes") + " resumed";
  if (!plan.kept_flagged.empty())
    note += "; " + count_text(plan.kept_flagged.size(), "bwsurvey drain", "bwsurvey drains") +
            " kept (still flagged in " + path + ": " + joined(plan.kept_flagged) + ")";
  if (!plan.kept_unknown.empty())
    note += "; " + count_text(plan.kept_unknown.size(), "bwsurvey drain", "bwsurvey drains") + " kept (no verdict in " +
            path + ": " + joined(plan.kept_unknown) + ")";
  note += "; " + count_text(plan.others, "other drain", "other drains") + " left alone";
  if (!plan.refusals.empty()) note += "; " + count_text(plan.refusals.size(), "host", "hosts") + " refused";
  return note + "; nothing was executed";
}

int run_undrain(const CommandArgs& args, std::istream& in, std::ostream& out, std::ostream& err) {
  po::options_description desc("Options");
  add_command_options(desc, undrain_schema().list());
  const ParsedCommand parsed = parse_command("undrain", args, desc, 1, 1);
  if (parsed.help) {
    print_command_help(out, undrain_command(), desc);
    out << "Prints, never runs, one resume line per node whose current drain reason begins \""
        << kDrainReasonPrefix
        << "\" (bwreport drain\nwrote it) and whose verdict in SOURCE is healthy: surveyed, and no confirmed or "
           "unretested flag.\nAny other reason is an operator's or another check's: that node is never resumed. "
           "A bwsurvey\ndrain of a node still flagged in SOURCE, or not in it, stays; stderr names them.\n"
           "  slurm: scontrol update NodeName=HOST State=RESUME\n"
           "  flux:  flux resource undrain HOST\n"
           "  pbs:   pbsnodes -c -N '' HOST\n";
    return 0;
  }
  const std::string& path = parsed.positional[0];
  const UndrainOptions options = read_command_options("undrain", undrain_schema(), parsed);
  const Scheduler scheduler = scheduler_named(options.format, "--format");
  if (options.reasons.empty() && scheduler != Scheduler::Slurm)
    throw UsageError("--reasons: required with --format " + options.format +
                     " (a file, or - for stdin, of lines \"HOST REASON...\")");

  const auto file = h5::ResultReader::open(path);
  require_survey_file(file, path, "undrain");
  const Table nodes = file.exists("/nodes/table") ? file.read_table("nodes/table") : Table();
  const Table flags = file.exists(std::string("/") + model::kFlagsPath) ? file.read_table(model::kFlagsPath) : Table();
  const SurveyStanding standing = survey_standing(file.exists("/nodes/table") ? &nodes : nullptr,
                                                  file.exists(std::string("/") + model::kFlagsPath) ? &flags : nullptr);

  std::string listing;
  if (options.reasons == "-")
    listing.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  else if (!options.reasons.empty())
    listing = read_input_file("--reasons", options.reasons, kMaxListingBytes);
  else
    listing = listing_of(kScontrolListing);

  const UndrainPlan plan = plan_undrain(parse_node_reasons(listing), standing, scheduler);
  for (const std::string& line : plan.lines) out << line << "\n";
  out.flush();
  for (const std::string& refusal : plan.refusals) err << refusal << "\n";
  err << undrain_note(plan, printable_text(path, 200)) << std::endl;
  return 0;
}

ReportCommand undrain_command() {
  return {"undrain",
          "undrain SOURCE [--reasons FILE|-] [--format slurm|flux|pbs]   resume lines for bwsurvey's drains of nodes "
          "now healthy (never run)",
          [](const CommandArgs& args, std::ostream& out) { return run_undrain(args, std::cin, out, std::cerr); }};
}

}  // namespace bws::report
