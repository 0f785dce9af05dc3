#pragma once
// The link map's plan: who takes part (one rank per node), the message
// size and repetitions that fit --time-budget, the estimate the plan
// line prints, and the slow-pair test hook. Pure but for reading the hook's
// variable and parsing --links.topology (links/LinksTopology.hpp). A plan
// is made twice: by plan() from assumed links, then re-fitted from the link
// probe (refit_links_to_probe) before the file, the plan line and the run.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/CollectiveBenchmark.hpp"
#include "core/Config.hpp"
#include "core/TimeEstimate.hpp"
#include "links/LinksOptions.hpp"
#include "links/LinksProbe.hpp"
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

// The assumed link, before the probe (and without one: unit tests, the
// fixed-speed test hook): 10 Gb/s Ethernet's order. On slower links it errs
// short (0.2 s planned, 40 s measured at 400 Mbit/s), which is why the plan
// is re-fitted from the probe.
inline constexpr double kAssumedLinkBps = 1e9;
inline constexpr double kAssumedLatencySeconds = 20e-6;
inline constexpr int kLatencyReps = 50;  // 8-byte messages per ordered pair: 25 round trips each end starts
inline constexpr std::uint64_t kSmallestChosenBytes = 4096;  // the budget halves the size down to this
// --links.bytes auto on one host (every rank stands for a node) is at most this.
inline constexpr std::uint64_t kLargestOneHostBytes = 1 << 20;
// --links.bytes auto without a probe: the sizes the option had as defaults.
inline constexpr std::uint64_t kUnprobedBytes = 1 << 20, kUnprobedQuickBytes = 64 * 1024;
// The probe's time: at most this, and at most kProbeBudgetShare of the
// budget. --quick too: on a 100 Mbit/s link 1 s ends the probe before a
// window outgrows 4 MiB of socket buffers, so the buffer is not seen.
inline constexpr double kProbeSeconds = 2, kProbeBudgetShare = 0.1;

// The phase's own fixed cost beside its steps: the members split off, the
// rows gathered into the file, the tables stored and the phase committed
// (the journal syncs the file: 4-8 ms a sync on this project's VM disk).
// 6-250 ms was measured for 2 and 4 ranks on one loaded host, but whole
// phases of 4 ranks on a quiet loopback took 19-21 ms: 30 ms here made
// their estimate 2.9x too long. At 10 ms a short phase is within 2x, and
// a loaded host's longer stores are small beside its longer steps.
inline constexpr double kStoreSeconds = 0.01;

// What a window and a shift cost: the probe's curve, or the assumed link.
// The machine probe's figures (0: not counted) add the payload work, the
// buffers' first touch and a step's barriers. The probe's shift time is a
// mean over a run of shifts, stalls included, as the run's are: the machine
// probe's exchange_stretch on top counted a loaded machine twice (8.4 s
// estimated for a 0.3 s run).
struct LinkModel {
  LinkProbe probe;          // not done(): the assumed link
  double memory_Bps = 0;    // one thread's memcpy rate: stamping, zeroing, checking payloads
  double first_touch_Bps = 0;  // the buffers' first touch
  double barrier_seconds = 0;  // one barrier of every rank (run/MachineProbe)
  double fixed_seconds = 0;    // kStoreSeconds once probed
  double window_seconds(std::uint64_t bytes, int window) const;
  double shift_seconds() const;
};

struct LinksPlan {
  std::vector<int> member_ranks;  // world rank of each member, in the matrices' row order
  bool every_rank = false;        // the run has one node: every rank stands for one
  std::uint64_t bytes = 0;
  bool bytes_auto = false;        // --links.bytes auto: the probe chooses (kUnprobedBytes until then)
  std::uint64_t largest_bytes = 0;  // the most one message may be: memory and kLargestAutoBytes
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
  LinkModel model;                // the assumed link until refit_links_to_probe
  double assumed_estimate_seconds = -1;  // after the probe: the estimate the assumed link gave (< 0: not probed)
  std::string size_reason;        // after the probe, with bytes auto: why this size
  std::uint64_t probed_bytes = 0; // after the probe, with bytes auto: its size (the budget never halves it)
  std::string chosen;             // what the budget changed, "" when nothing
  SlowPair slow;
  int members() const { return static_cast<int>(member_ranks.size()); }
};

// The lowest world rank of each node, in node order of first appearance
// by rank; when every rank is on one node, every rank.
std::vector<int> member_ranks(const std::vector<int>& node_of_rank);

// Seconds the whole pattern takes for `members` under the assumed link:
// model::pair_rounds(N) rounds of, each way in turn, one verification
// window, `reps` timed windows and (with latency) kLatencyReps 8-byte
// messages.
double estimate_seconds(int members, std::uint64_t bytes, int reps, int window, bool latency);
// ... under `model`: its windows and shifts, and the payloads' stamping,
// zeroing and checking and the buffers' first touch at its memory rates.
double estimate_seconds(int members, std::uint64_t bytes, int reps, int window, bool latency, const LinkModel& model);
// The estimate's terms: "3 steps x 6 windows of 8 x 8.00 MiB at 48.2 MB/s (link probe) + 50 shifts of 95 us".
std::string estimate_terms(const LinksPlan& plan);

// The probe's bounds for this plan: the largest message, its time
// (kProbeSeconds, within kProbeBudgetShare of the budget), and a given
// size to probe up to.
ProbeBounds probe_bounds(const LinksPlan& plan);

// The plan again from the options and the probe: with bytes auto the
// probe's size (choose_message_bytes), the estimate from its curve (at the
// machine probe's memory rates), then the budget fitter as before; the
// assumed link's estimate is kept for the plan line. An empty probe
// changes nothing. UsageError as fit_links_to_budget.
void refit_links_to_probe(LinksPlan& plan, const LinksOptions& options, const LinkProbe& probe,
                          const MachineSpeed& speed);

// Through the core's budget fitter: lowers reps (down to 1), then halves
// bytes (down to kSmallestChosenBytes, or the given size if smaller), each
// only when its option was left at its default, until the estimate fits
// plan.budget_seconds; UsageError naming plan.budget_flag when even the
// smallest does not fit. A size the link probe chose is never halved (it
// is what the links need to be measured beyond their buffers): then only
// reps are lowered, or the budget refused.
void fit_links_to_budget(LinksPlan& plan, const LinksOptions& options);

// "a,b,factor" (member indices, factor 1..1000), where a and b may be
// ranges "first-last" ("0-1,2-3,20": every pair from members 0..1 to
// 2..3); UsageError naming the variable.
SlowPair parse_slow_pair(const std::string& text, int members);

LinksPlan plan_links(const LinksOptions& options, const RankLayout& layout);
LinksPlan plan_links(const Config& config, const RankLayout& layout);

// The plan line: "5 nodes, 5 rounds of pairs x 2 reps x window 4 x 64 KiB each way ..., estimate 1.2 s (limit --time-budget 300 s)",
// then after a probe "; link probe: ...; size: why; the assumed links' estimate: 0.2 s".
std::string describe_links(const LinksPlan& plan);

}  // namespace bws::links
