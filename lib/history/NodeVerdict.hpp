#pragma once
// bwreport verdict --node HOST SOURCE: the node's standing verdict, read
// (never measured) for a health check that Slurm kills after 60 s: one line
// and an exit code a script can use. SOURCE is a survey file or the history
// archive (the latest survey that holds HOST, history/ArchiveVerdict).
//   0  healthy: surveyed, no confirmed flag
//   3  flagged: a flag the survey's retest confirmed (metric, value, % of
//      the cohort median, survey and date)
//   4  not surveyed: SOURCE does not hold HOST
//   5  too old: the survey is older than --max-age days
//   1  SOURCE could not be read; 2 a usage error
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "core/Table.hpp"
#include "report/ReportCommand.hpp"

namespace bws::history {

inline constexpr int kVerdictHealthy = 0, kVerdictFlagged = 3, kVerdictNotSurveyed = 4, kVerdictTooOld = 5;

struct SurveyFacts {
  std::string id;           // the Slurm job id, else the file's name
  std::string created_utc;  // ISO 8601
  std::int64_t created_unix_s = 0;
  bool has_node = false;    // HOST is in /nodes/table
  std::string where;        // what "not surveyed in" names when not this survey ("archive 'a.sqlite'")
};

struct NodeVerdict {
  int code = kVerdictHealthy;
  std::string line;  // "n3: flagged: stream.triad[double] 5.21GB/s, 18% of cohort median, confirmed; survey 42 of ..."
};

// `flags` may be null (a survey that ran no node checks: healthy when
// surveyed). max_age_days < 0: no limit.
NodeVerdict node_verdict(const std::string& host, const SurveyFacts& survey, const Table* flags,
                         std::int64_t now_unix_s, double max_age_days);

report::ReportCommand verdict_command();

}  // namespace bws::history
