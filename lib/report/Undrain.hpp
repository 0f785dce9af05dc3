#pragma once
// bwreport undrain SOURCE: the resume commands for the nodes that bwsurvey
// drained (their current reason begins kDrainReasonPrefix) and whose latest
// verdict in SOURCE is healthy. A drain with any other reason is an
// operator's or another check's and is never resumed; a bwsurvey drain of a
// node still flagged, or not in SOURCE, stays. Printed, never executed.
#include <iosfwd>
#include <set>
#include <string>
#include <vector>

#include "core/Table.hpp"
#include "report/NodeReasons.hpp"
#include "report/ReportCommand.hpp"
#include "report/SchedulerLines.hpp"

namespace bws::report {

// One survey's verdicts by host: surveyed (in /nodes/table), and of those
// the hosts a confirmed or unretested flag names (a flag the retest did not
// confirm is transient: healthy). Links and uplinks are no node's.
struct SurveyStanding {
  std::set<std::string> surveyed;
  std::set<std::string> flagged;
  bool judged = false;  // the survey has /flags (it ran node checks)
  bool healthy(const std::string& host) const { return judged && surveyed.count(host) && !flagged.count(host); }
};
SurveyStanding survey_standing(const Table* nodes, const Table* flags);

struct UndrainPlan {
  std::vector<std::string> lines;        // resume commands, in the reasons' order
  std::vector<std::string> kept_flagged;  // bwsurvey drains of nodes still flagged
  std::vector<std::string> kept_unknown;  // bwsurvey drains of nodes SOURCE did not judge
  std::size_t others = 0;                 // drains whose reason is not bwsurvey's
  std::vector<std::string> refusals;      // stderr lines: names that are not node names
};
UndrainPlan plan_undrain(const std::vector<NodeReason>& reasons, const SurveyStanding& standing, Scheduler scheduler);

// "bwreport undrain: 1 node resumed; 1 bwsurvey drain kept (still flagged: n3); 2 other drains left alone;
// nothing was executed"
std::string undrain_note(const UndrainPlan& plan, const std::string& path);

// The command with its streams given; `in` is read for --reasons -.
int run_undrain(const CommandArgs& args, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace bws::report
