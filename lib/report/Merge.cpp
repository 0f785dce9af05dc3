// bwreport merge OUT FILE...: the survey files of a scaling study in one
// file, one group per run (/runs/01-n1, /runs/02-n2, ... ordered by node and
// rank count), each a whole copy of its file with the root attributes
// (n_nodes, n_ranks, status, ...) on the group and source_file added. OUT
// is written through core/FileGuard (a scratch file renamed into place).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <ostream>

#include <boost/program_options/options_description.hpp>

#include "core/Errors.hpp"
#include "core/FileGuard.hpp"
#include "core/PrintableText.hpp"
#include "core/Timestamps.hpp"
#include "h5/ResultFile.hpp"
#include "report/CommandOptions.hpp"
#include "report/ReportCommand.hpp"
#include "report/SurveyTables.hpp"

namespace po = boost::program_options;

namespace bws::report {
namespace {

struct Run {
  std::string path;
  std::int64_t nodes = 0, ranks = 0;
  std::string status;
};

struct MergeOptions : TypedOptions {
  bool force = false;
};

const OptionSchema<MergeOptions>& merge_schema() {
  static const OptionSchema<MergeOptions> schema(
      {bind_option(flag_option("force", false, "overwrite OUT when it exists"), &MergeOptions::force)});
  return schema;
}

int run_merge(const CommandArgs& args, std::ostream& out) {
  po::options_description desc("Options");
  add_command_options(desc, merge_schema().list());
  const ParsedCommand parsed = parse_command("merge", args, desc, 2, -1);
  if (parsed.help) {
    print_command_help(out, merge_command(), desc);
    return 0;
  }
  const std::string& target = parsed.positional[0];
  const std::vector<std::string> inputs(parsed.positional.begin() + 1, parsed.positional.end());
  // Before anything is opened: OUT is never an input (--force or not), and
  // no run is merged twice.
  refuse_output_over_input("merge", "OUT", target, inputs);
  refuse_repeated_inputs("merge", inputs, "each run's file once");
  // OUT as an output (never a device, a link or an input; replaced only
  // with --force and only when it is an HDF5 file), before any input is read.
  const OutputRules rules{"bwreport merge: OUT", read_command_options("merge", merge_schema(), parsed).force, inputs,
                          OwnFile::Hdf5};
  check_output_file(target, rules);
  std::vector<Run> runs;
  for (const std::string& path : inputs) {
    const auto file = h5::ResultReader::open(path);
    require_one_survey(file, path, "merge");
    if (!file.has_attribute("/", "n_nodes") || !file.has_attribute("/", "n_ranks"))
      throw UsageError("bwreport merge: '" + printable_text(path, 200) + "' has no n_nodes or n_ranks: not a survey file");
    runs.push_back({path, file.attribute_int("/", "n_nodes"), file.attribute_int("/", "n_ranks"),
                    file.attribute_text("/", "status")});
  }
  std::stable_sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) {
    return a.nodes != b.nodes ? a.nodes < b.nodes : a.ranks < b.ranks;
  });

  // Written to a fresh scratch file beside OUT, renamed onto it when whole;
  // what is printed (text of the files escaped) comes after.
  AtomicFile output(target, rules);
  h5::ResultFile merged = h5::ResultFile::create(output.scratch_path(), true);
  std::vector<std::string> lines;
  std::string names;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    char name[48];
    std::snprintf(name, sizeof name, "%02zu-n%lld", i + 1, static_cast<long long>(runs[i].nodes));
    const std::string group = std::string("/runs/") + name;
    merged.copy_file_into(runs[i].path, group);
    merged.set_attribute(group, "source_file", std::filesystem::absolute(runs[i].path).string());
    if (!names.empty()) names += ',';
    names += name;
    const std::string status = printable_text(runs[i].status, 200), from = printable_text(runs[i].path);
    lines.push_back(group + ": " + std::to_string(runs[i].nodes) + (runs[i].nodes == 1 ? " node, " : " nodes, ") +
                    std::to_string(runs[i].ranks) + (runs[i].ranks == 1 ? " rank" : " ranks") + ", status " + status +
                    ", from " + from);
    if (runs[i].status != "complete") lines.push_back("  warning: " + from + " is not complete (status " + status + ")");
  }
  merged.set_attribute("/", "file_kind", std::string(kMergedFileKind));
  merged.set_attribute("/", "created_utc", utc_now_iso8601());
  merged.set_attribute("/", "n_runs", static_cast<std::int64_t>(runs.size()));
  merged.set_attribute("/", "runs", names);
  merged.set_attribute("/", "status", std::string("complete"));
  merged.close();
  output.commit();
  for (const std::string& line : lines) out << line << "\n";
  out << "merged " << runs.size() << (runs.size() == 1 ? " run" : " runs") << " into " << printable_text(target)
      << "; next: bwreport scaling " << printable_text(target) << "\n";
  return 0;
}

}  // namespace

ReportCommand merge_command() {
  return {"merge", "merge OUT FILE...   a scaling study in one file: one group per run (/runs/NN-n<nodes>)",
          run_merge};
}

}  // namespace bws::report
