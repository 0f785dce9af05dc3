#pragma once
// bwreport drain FILE: the drain commands (Slurm, Flux or PBS) for the
// nodes a survey's /flags table names with a confirmed flag, one line per
// node:
//   scontrol update NodeName=n7 State=DRAIN 'Reason=bwsurvey: stream.triad[double] 4.6GB/s 51% of cohort median job 4242'
// printed on stdout, never executed (an admin may pipe them to sh). The
// line-building is a pure function over the Table so it can be tested
// without a file.
#include <cstddef>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "core/Table.hpp"
#include "report/ReportCommand.hpp"
#include "report/SchedulerLines.hpp"

namespace bws::report {

// The longest Reason the commands carry. Slurm itself sets no bound on a
// node's reason (scontrol and slurmctld xstrdup it), but slurmdbd keeps it
// in its event table as a MySQL TINYTEXT (at most 255 bytes), and sinfo -R
// shows only the first 20 characters: the reasons stay under 80 characters,
// their first words "bwsurvey METRIC" being what a narrow column shows.
inline constexpr std::size_t kDrainReasonMax = 79;

// One drain command per host with a confirmed flag (and, when
// include_unconfirmed, per host with a "not retested" flag; its reason then
// begins "bwsurvey: unretested"), in order of the host's first row. The
// reason names the host's worst flag (lowest percent_of_median for a
// bandwidth, highest for a time, unit "s"; confirmed flags before
// unretested ones; a floor flag names its floor) and "+N more" for its
// other flagged metrics. Every reason begins with kDrainReasonPrefix. job_id is
// the survey's slurm_job_id; empty gives "nojob"; job_of_host (a campaign's
// nodes, each from its own batch) names a host's own job. A host that is not a valid
// Slurm node name gets no command but one line in `refusals` (the whole
// stderr line). A /flags table without a status column (a file made before
// retests) counts every flag as "not retested". Throws RuntimeFailure when
// the table has no host or metric column.
std::vector<std::string> drain_lines(const Table& flags, const std::string& job_id, bool include_unconfirmed,
                                     std::vector<std::string>& refusals, Scheduler scheduler = Scheduler::Slurm,
                                     const std::map<std::string, std::string>& job_of_host = {});

// The counts of the stderr note.
struct DrainCounts {
  std::size_t confirmed_nodes = 0;   // hosts with at least one confirmed flag
  std::size_t transient_flags = 0;   // flags "not confirmed (transient)"
  std::size_t unretested_flags = 0;  // flags "not retested" (every flag when there is no status column)
  std::size_t other_flags = 0;       // flags with a status of none of these
  bool has_status = true;            // whether /flags has a status column
};
DrainCounts count_drain_flags(const Table& flags);

// The one-line stderr note: "bwreport drain: 1 node confirmed, 2 flags not
// confirmed (transient), 0 not retested; nothing was executed", saying
// "nothing to drain in PATH" first when no command was printed.
std::string drain_note(const DrainCounts& counts, std::size_t printed, std::size_t refused, bool include_unconfirmed,
                       const std::string& path);

// How many times worse than its cohort's median a /flags row is:
// median/value for a bandwidth, value/median for a time (unit "s"); -1 for
// a row without a median (a floor, a configuration flag), which ranks last.
double flag_severity(const Table& flags, std::size_t r);
// "1 node", "2 nodes": a count and its noun, for the one-line notes.
std::string count_text(std::size_t n, const char* one, const char* many);

// Letters, digits, '.', '_' and '-', 1 to 128 characters: a name scontrol
// takes as one node (no host list brackets or commas) and the shell as one word.
bool is_valid_node_name(const std::string& host);
// "4.6GB/s", "2.15us", "850MB/s": a value in its unit, short and without spaces.
std::string drain_value_text(double value, const std::string& unit);

// The command with its streams given (the tests capture stderr with it);
// drain_command().run calls it with std::cerr.
int run_drain(const CommandArgs& args, std::ostream& out, std::ostream& err);

}  // namespace bws::report
