#pragma once
// The reasons nodes are drained for now, as the scheduler lists them: the
// text of `scontrol show node` (one block per node, or --oneliner),
// `sinfo -R`, or lines "HOST REASON..." (any other scheduler's listing cut
// to that, '#' lines ignored). bwreport undrain reads it to resume only
// the drains bwsurvey made. Pure.
#include <string>
#include <vector>

namespace bws::report {

struct NodeReason {
  std::string host;
  std::string reason;  // without scontrol's " [user@time]"; sinfo -R may show only its first 20 characters
};

// Every drained node the text names, in its order; a host list ("n[1-3]")
// stands for each of its hosts. Throws UsageError for a host list that does
// not expand (naming the line).
std::vector<NodeReason> parse_node_reasons(const std::string& text);

// Whether `reason` is one bwsurvey wrote: it begins with kDrainReasonPrefix.
bool is_bwsurvey_reason(const std::string& reason);

}  // namespace bws::report
