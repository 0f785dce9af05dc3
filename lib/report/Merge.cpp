// bwreport merge OUT FILE...: the survey files of a scaling study in one
// file, one group per run (/runs/01-n1, /runs/02-n2, ... ordered by node and
// rank count), each a whole copy of its file with the root attributes
// (n_nodes, n_ranks, status, ...) on the group and source_file added.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <ostream>

#include "core/Errors.hpp"
#include "core/FileIdentity.hpp"
#include "core/Timestamps.hpp"
#include "h5/ResultFile.hpp"
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

int run_merge(const CommandArgs& args, std::ostream& out) {
  po::options_description desc("Options");
  desc.add_options()("force", po::bool_switch(), "overwrite OUT when it exists");
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
  for (std::size_t i = 0; i < inputs.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (same_file(inputs[i], inputs[j]))
        throw UsageError("bwreport merge: '" + inputs[i] + "' and '" + inputs[j] +
                         "' are the same file; allowed: each run's file once");
  std::vector<Run> runs;
  for (const std::string& path : inputs) {
    const auto file = h5::ResultReader::open(path);
    require_survey_file(file, path, "merge");
    if (!file.has_attribute("/", "n_nodes") || !file.has_attribute("/", "n_ranks"))
      throw UsageError("bwreport merge: '" + path + "' has no n_nodes or n_ranks: not a survey file");
    runs.push_back({path, file.attribute_int("/", "n_nodes"), file.attribute_int("/", "n_ranks"),
                    file.attribute_text("/", "status")});
  }
  std::stable_sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) {
    return a.nodes != b.nodes ? a.nodes < b.nodes : a.ranks < b.ranks;
  });

  h5::ResultFile merged = [&] {
    try {
      return h5::ResultFile::create(target, parsed.options["force"].as<bool>());
    } catch (const UsageError& e) {
      std::string message = e.what();
      if (message.rfind("--out: ", 0) == 0) message.erase(0, 7);
      throw UsageError("bwreport merge: OUT: " + message);
    }
  }();
  std::string names;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    char name[48];
    std::snprintf(name, sizeof name, "%02zu-n%lld", i + 1, static_cast<long long>(runs[i].nodes));
    const std::string group = std::string("/runs/") + name;
    merged.copy_file_into(runs[i].path, group);
    merged.set_attribute(group, "source_file", std::filesystem::absolute(runs[i].path).string());
    if (!names.empty()) names += ',';
    names += name;
    out << group << ": " << runs[i].nodes << (runs[i].nodes == 1 ? " node, " : " nodes, ") << runs[i].ranks
        << (runs[i].ranks == 1 ? " rank" : " ranks") << ", status " << runs[i].status << ", from " << runs[i].path
        << "\n";
    if (runs[i].status != "complete")
      out << "  warning: " << runs[i].path << " is not complete (status " << runs[i].status << ")\n";
  }
  merged.set_attribute("/", "file_kind", std::string(kMergedFileKind));
  merged.set_attribute("/", "created_utc", utc_now_iso8601());
  merged.set_attribute("/", "n_runs", static_cast<std::int64_t>(runs.size()));
  merged.set_attribute("/", "runs", names);
  merged.set_attribute("/", "status", std::string("complete"));
  merged.close();
  out << "merged " << runs.size() << (runs.size() == 1 ? " run" : " runs") << " into " << target
      << "; next: bwreport scaling " << target << "\n";
  return 0;
}

}  // namespace

ReportCommand merge_command() {
  return {"merge", "merge OUT FILE...   a scaling study in one file: one group per run (/runs/NN-n<nodes>)",
          run_merge};
}

}  // namespace bws::report
