#pragma once
// The link map's plan: who takes part (one rank per node), the message
// size and repetitions that fit --time-budget, the estimate the plan
// line prints, and the slow-pair test hook. Pure but for reading the hook's
// variable and parsing --links.topology (links/LinksTopology.hpp).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/CollectiveBenchmark.hpp"
#include "core/Config.hpp"
#include "links/LinksOptions.hpp"
#include "links/LinksTopology.hpp"

namespace bws::links {

// A test build's hook: the messages of every member in [from, from_last]
// to every other member in [to, to_last] are timed `factor` times as long
// (the sender's send time and the receiver's receive time of those pairs
// are scaled): one pair, or every pair between two blocks of members, as
// a slow switch uplink would make them. Read once at plan time; in other
// builds it is ignored.
inline constexpr const char* kSlowPairEnvironment = "BWSURVEY_LINKS_SLOW_PAIR";
struct SlowPair {
  int from = -1, to = -1;            // member indices; -1: no hook
  int from_last = -1, to_last = -1;  // the blocks' last members (from, to for one pair)
  double factor = 1;
  bool active() const { return from >= 0; }
  bool slows(int sender, int receiver) const {
    return active() && sender != receiver && sender >= from && sender <= from_last && receiver >= to &&
           receiver <= to_last;
  }
};

// The model behind the estimate: a conservative link (10 Gb/s Ethernet's
// order, below any HPC fabric) so the estimate errs long, not short.
inline constexpr double kAssumedLinkBps = 1e9;
inline constexpr double kAssumedLatencySeconds = 20e-6;
inline constexpr int kLatencyReps = 50;  // 8-byte messages per ordered pair: 25 round trips each end starts
inline constexpr std::uint64_t kSmallestChosenBytes = 4096;  // the budget halves the size down to this

struct LinksPlan {
  std::vector<int> member_ranks;  // world rank of each member, in the matrices' row order
  bool every_rank = false;        // the run has one node: every rank stands for one
  std::uint64_t bytes = 0;
  int reps = 0;
  int window = 0;
  bool latency = true;
  double budget_seconds = 0;      // what the estimate must fit: --time-budget (0: none), or the deprecated --links.max-time
  std::string budget_flag;        // "--time-budget", or "--links.max-time" when that was given
  std::string deprecated_flag;    // "--links.max-time" when given: the plan line says it is deprecated
  std::map<std::string, std::string> chosen_options;  // option -> the value the budget chose (the stored /config)
  std::string topology;           // path to a readable topology.conf, or ""
  LinksTopology tree;             // the switch tree (on world rank 0 at least) and where it came from
  double estimate_seconds = 0;
  std::string chosen;             // what the budget changed, "" when nothing
  SlowPair slow;
  int members() const { return static_cast<int>(member_ranks.size()); }
};

// The lowest world rank of each node, in node order of first appearance
// by rank; when every rank is on one node, every rank.
std::vector<int> member_ranks(const std::vector<int>& node_of_rank);

// Seconds the whole pattern takes for `members` under the model above:
// model::pair_rounds(N) rounds of, each way in turn, one verification
// window, `reps` timed windows and (with latency) kLatencyReps 8-byte
// messages.
double estimate_seconds(int members, std::uint64_t bytes, int reps, int window, bool latency);

// Through the core's budget fitter: lowers reps (down to 1), then halves
// bytes (down to kSmallestChosenBytes, or the given size if smaller), each
// only when its option was left at its default, until the estimate fits
// plan.budget_seconds; UsageError naming plan.budget_flag when even the
// smallest does not fit.
void fit_links_to_budget(LinksPlan& plan, const LinksOptions& options);

// "a,b,factor" (member indices, factor 1..1000), where a and b may be
// ranges "first-last" ("0-1,2-3,20": every pair from members 0..1 to
// 2..3); UsageError naming the variable.
SlowPair parse_slow_pair(const std::string& text, int members);

LinksPlan plan_links(const LinksOptions& options, const RankLayout& layout);
LinksPlan plan_links(const Config& config, const RankLayout& layout);

// The plan line: "5 nodes, 5 rounds of pairs x 2 reps x window 4 x 64 KiB each way ..., estimate 1.2 s (limit --time-budget 300 s)".
std::string describe_links(const LinksPlan& plan);

}  // namespace bws::links
