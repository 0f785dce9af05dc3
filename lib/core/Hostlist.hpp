#pragma once
// Slurm host lists: "n[1-3,5],gpu[01-02]" <-> n1,n2,n3,n5,gpu01,gpu02.
// Expanded for /provenance (SLURM_JOB_NODELIST is compressed), compressed
// for `bwreport retest` (a --nodelist for the follow-up job). Pure.
#include <string>
#include <vector>

namespace bws {

// Expands every bracket ("a[1-2]b[3,5]" too), keeping zero padding.
// Throws std::invalid_argument on an unbalanced bracket or a bad range.
std::vector<std::string> expand_hostlist(const std::string& list);

// Hosts that differ only in a trailing number are written as one bracket
// range (zero padding kept apart); groups in order of first appearance,
// numbers ascending, duplicates dropped.
std::string compress_hostlist(const std::vector<std::string>& hosts);

}  // namespace bws
