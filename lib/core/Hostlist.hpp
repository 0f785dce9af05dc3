#pragma once
// Slurm host lists: "n[1-3,5],gpu[01-02]" <-> n1,n2,n3,n5,gpu01,gpu02.
// Expanded for /provenance (SLURM_JOB_NODELIST is compressed), compressed
// for `bwreport retest` (a --nodelist for the follow-up job). Pure.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace bws {

// The most names one host list may stand for, in every place one is read
// (a topology file, SLURM_JOB_NODELIST, an option): ten times the nodes of
// the largest clusters (~10^5), while 10^6 names of ~16 bytes still fit
// in memory. A list of more is a mistake or a hostile input: "n[0-999999]
// [0-999999]" would expand to 10^12 names. Lists are counted before they
// are expanded (count_hostlist).
inline constexpr std::uint64_t kMaxHostlistNames = 1'000'000;

// A list that names more than kMaxHostlistNames hosts.
class HostlistTooLong : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// How many names `list` expands to (duplicates counted), without expanding
// it; saturates at UINT64_MAX. Throws std::invalid_argument on an
// unbalanced bracket or a bad range, as expand_hostlist.
std::uint64_t count_hostlist(const std::string& list);

// Expands every bracket ("a[1-2]b[3,5]" too), keeping zero padding.
// Throws std::invalid_argument on an unbalanced bracket or a bad range,
// and HostlistTooLong (counted first: nothing is expanded) when it names
// more than kMaxHostlistNames hosts.
std::vector<std::string> expand_hostlist(const std::string& list);

// Hosts that differ only in a trailing number are written as one bracket
// range (zero padding kept apart); groups in order of first appearance,
// numbers ascending, duplicates dropped.
std::string compress_hostlist(const std::vector<std::string>& hosts);

}  // namespace bws
