// bwreport retest FILE: the flagged nodes as a Slurm host list, for a
// follow-up job: sbatch --nodelist="$(bwreport retest survey.h5)" ...
// Prints nothing (and says so on stderr) when no node is flagged.
#include <algorithm>
#include <iostream>
#include <ostream>

#include "catalog/Registry.hpp"
#include "core/Errors.hpp"
#include "core/Hostlist.hpp"
#include "core/PrintableText.hpp"
#include "h5/ResultFile.hpp"
#include "model/NodeFlags.hpp"
#include "report/Drain.hpp"
#include "report/FlagsInput.hpp"
#include "report/ReportCommand.hpp"
#include "report/SurveyTables.hpp"

namespace bws::report {
namespace {

int run_retest(const CommandArgs& args, std::ostream& out) {
  const std::optional<FlagsInput> input = open_flags_input(retest_command(), args, out);
  if (!input) return 0;  // --help
  const std::string& path = input->path;
  bool stored = false;
  const Table flags = survey_flags(input->file, input->options, stored);
  // Flags an in-job retest dismissed are left out. A slow link names both
  // its ends; a slow uplink names no host: one line says where to look.
  std::vector<std::string> hosts;
  for (std::size_t r = 0; r < flags.rows(); ++r) {
    if (!model::flag_stands(flags, r)) continue;
    const std::string& metric = flags.get_string(r, "metric");
    const std::string& subject = flags.get_string(r, "host");
    const std::vector<std::string> named = model::flag_row_hosts(metric, subject);
    if (named.empty())
      std::cerr << "bwreport retest: " << printable_text(metric, 64) << " " << printable_text(subject, 200)
                << ": its hosts are not in /flags; rerun --tests links on the nodes of the leaves it joins "
                   "(their leaf is in /links/hosts)"
                << std::endl;
    for (const std::string& host : named)
      if (std::find(hosts.begin(), hosts.end(), host) == hosts.end()) hosts.push_back(host);
  }
  if (hosts.empty()) {
    std::cerr << "bwreport retest: no node of " << printable_text(path) << " is flagged" << std::endl;
    return 0;
  }
  // The list goes into sbatch --nodelist: a name Slurm could not take (a
  // newline, a comma, a bracket would change the list) is refused, not printed.
  for (const std::string& host : hosts)
    if (!is_valid_node_name(host))
      throw UsageError("bwreport retest: '" + printable_text(path, 200) + "': table '/flags': host '" +
                       printable_text(host, 200) +
                       "' is not a node name Slurm takes (1 to 128 letters, digits, '.', '_' or '-')");
  out << compress_hostlist(hosts) << "\n";
  return 0;
}

}  // namespace

ReportCommand retest_command() {
  return {"retest", "retest FILE [--flags.* ...]   the flagged nodes as a Slurm --nodelist for a follow-up job",
          run_retest};
}

}  // namespace bws::report
