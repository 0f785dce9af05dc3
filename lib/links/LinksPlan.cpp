#include "links/LinksPlan.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "core/BudgetFit.hpp"
#include "core/Errors.hpp"
#include "core/FormatText.hpp"
#include "core/OptionText.hpp"
#include "core/Sizes.hpp"
#include "model/PairRounds.hpp"

namespace bws::links {
namespace {

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g s", s);
  return buf;
}

std::string factor_text(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", f);
  return buf;
}

SlowPair slow_pair_from_environment(int members) {
#if defined(BWS_TEST_HOOKS) && BWS_TEST_HOOKS
  const char* text = std::getenv(kSlowPairEnvironment);
  if (text == nullptr || *text == '\0') return {};
  return parse_slow_pair(text, members);
#else
  (void)members;
  return {};  // a build without test hooks ignores the variable (bwsurvey says so at start)
#endif
}

// The most one message may be: `window` receive buffers and one send
// buffer on every member of a node within 40% of its memory (as b_eff's
// bound); unknown memory: no bound.
std::uint64_t memory_limit_bytes(int window, const RankLayout& layout, bool every_rank) {
  if (layout.node_memory_bytes == 0) return UINT64_MAX;
  const double members_on_node = every_rank ? std::max(1, layout.ranks_on_node) : 1;
  const double node_bytes = static_cast<double>(layout.node_memory_bytes);
  return static_cast<std::uint64_t>(0.4 * node_bytes / members_on_node / (window + 1));
}

// A given size within memory_limit_bytes.
void check_memory(const LinksOptions& o, const RankLayout& layout, bool every_rank) {
  const std::uint64_t limit = memory_limit_bytes(o.window, layout, every_rank);
  if (!o.bytes || *o.bytes <= limit) return;
  throw UsageError(o.flag(&LinksOptions::bytes) + ": " + std::to_string(*o.bytes) +
                   " bytes is above what memory allows; allowed: 8.." + std::to_string(limit) + " bytes (" +
                   std::to_string(o.window + 1) + " buffers per member within 40% of " +
                   format_bytes(static_cast<double>(layout.node_memory_bytes)) + ")");
}

// What else a refused budget could change: with the probe's size, a
// smaller size would time buffers, so none is offered.
std::string too_small_alternatives(const LinksPlan& plan, const LinksOptions& o) {
  if (plan.probed_bytes > 0)
    return " (the size is the link probe's: smaller messages would time the socket buffers, not the links)" +
           (o.defaulted(&LinksOptions::reps) ? "" : ", or leave " + o.flag(&LinksOptions::reps) + " at its default");
  return ", or a smaller " + o.flag(&LinksOptions::window) +
         (o.defaulted(&LinksOptions::reps) && o.defaulted(&LinksOptions::bytes)
              ? ""
              : ", or leave " + o.flag(&LinksOptions::reps) + " and " + o.flag(&LinksOptions::bytes) +
                    " at their defaults");
}

// The time of the payload work per step, in passes at the memcpy rate: the
// stamp and the check compute a splitmix64 per 8-byte word.
constexpr double kPayloadPasses = 2;

}  // namespace

std::vector<int> member_ranks(const std::vector<int>& node_of_rank) {
  std::vector<int> members;
  std::set<int> seen;
  for (std::size_t r = 0; r < node_of_rank.size(); ++r)
    if (seen.insert(node_of_rank[r]).second) members.push_back(static_cast<int>(r));
  if (members.size() == 1)  // one node: the ranks stand for nodes (a single-host run of the pattern)
    for (int r = 1; r < static_cast<int>(node_of_rank.size()); ++r) members.push_back(r);
  return members;
}

double LinkModel::window_seconds(std::uint64_t bytes, int window) const {
  if (probe.done()) return probed_window_seconds(probe, static_cast<double>(window) * static_cast<double>(bytes));
  return static_cast<double>(window) * static_cast<double>(bytes) / kAssumedLinkBps + kAssumedLatencySeconds;
}

double LinkModel::shift_seconds() const {
  return probe.done() ? probe.shift_seconds : kAssumedLatencySeconds + 8 / kAssumedLinkBps;
}

double estimate_seconds(int members, std::uint64_t bytes, int reps, int window, bool latency) {
  return estimate_seconds(members, bytes, reps, window, latency, LinkModel{});
}

double estimate_seconds(int members, std::uint64_t bytes, int reps, int window, bool latency, const LinkModel& model) {
  if (members < 2) return 0;
  const double b = static_cast<double>(bytes), w = window;
  // One direction of a round: a verification window, `reps` timed windows
  // and (with latency) the ping-pongs, each begun by a handshake of the pair.
  double one_way = (1 + reps) * model.window_seconds(bytes, window);
  if (latency) one_way += kLatencyReps * model.shift_seconds();
  one_way += 2 * model.barrier_seconds;  // before the verification and before the timed windows
  // The send buffer stamped, the receive buffers zeroed and checked.
  if (model.memory_Bps > 0) one_way += kPayloadPasses * (b + 2 * w * b) / model.memory_Bps;
  // Each round measures its pairs one direction at a time.
  double total = model::pair_rounds(members) * 2 * one_way;
  if (model.first_touch_Bps > 0) total += (w + 1) * b / model.first_touch_Bps;
  return total + model.fixed_seconds;
}

std::string estimate_terms(const LinksPlan& p) {
  const double window_bytes = static_cast<double>(p.window) * static_cast<double>(p.bytes);
  const double rate = window_bytes / p.model.window_seconds(p.bytes, p.window);
  const std::string messages =
      p.latency ? format_text(" + %d messages of %.3g us", kLatencyReps, p.model.shift_seconds() * 1e6) : "";
  return std::to_string(model::pair_rounds(p.members())) + " rounds x 2 ways x " + std::to_string(1 + p.reps) +
         " windows of " + std::to_string(p.window) + " x " + format_bytes(static_cast<double>(p.bytes)) + " at " +
         format_rate(rate) + (p.model.probe.done() ? " (link probe)" : " (assumed links)") + messages;
}

ProbeBounds probe_bounds(const LinksPlan& plan) {
  ProbeBounds bounds;
  bounds.max_message_bytes = plan.bytes_auto ? plan.largest_bytes : plan.bytes;
  bounds.given_bytes = plan.bytes_auto ? 0 : plan.bytes;
  bounds.max_seconds = kProbeSeconds;
  if (plan.budget_seconds > 0)
    bounds.max_seconds = std::min(bounds.max_seconds, kProbeBudgetShare * plan.budget_seconds);
  return bounds;
}

void fit_links_to_budget(LinksPlan& plan, const LinksOptions& o) {
  const int n = plan.members();
  const auto estimate = [n](const LinksPlan& p) {
    return TimeEstimate{estimate_seconds(n, p.bytes, p.reps, p.window, p.latency, p.model), ""};
  };
  // The probe's size is what the links need to be measured rather than
  // their buffers: below it the windows time the kernel's buffers and
  // clean nodes read as slow (8 x 2.5 MiB halved to 640 KiB by a 10 s
  // budget named a clean node at 71 %). So after a probe the size is no
  // knob: the budget lowers the repetitions, or is refused.
  const bool size_free = o.defaulted(&LinksOptions::bytes) && plan.probed_bytes == 0;
  const std::uint64_t floor_bytes = std::min(plan.bytes, kSmallestChosenBytes);
  const std::vector<BudgetKnob<LinksPlan>> knobs = {
      count_knob("reps", o.defaulted(&LinksOptions::reps), &LinksPlan::reps, 1),
      whole_knob("bytes", size_free, &LinksPlan::bytes, floor_bytes, [](std::uint64_t b) { return b / 2; })};
  const auto fitted = fit_to_budget<LinksPlan>(plan, plan.budget_seconds, estimate, knobs);
  plan = fitted.plan;
  plan.estimate_seconds = estimate(plan).seconds;
  plan.chosen = fitted.changes;
  plan.chosen_options.clear();
  if (plan.reps != o.reps) plan.chosen_options[links_schema().name_of(&LinksOptions::reps)] = std::to_string(plan.reps);
  if (!o.bytes || plan.bytes != *o.bytes)  // auto: the size chosen is what ran
    plan.chosen_options[links_schema().name_of(&LinksOptions::bytes)] = std::to_string(plan.bytes);
  if (!fitted.fits)
    throw UsageError(plan.budget_flag + " " + seconds_text(plan.budget_seconds) +
                     ": below the smallest plan's estimate for " + std::to_string(n) + " nodes (" +
                     std::to_string(plan.reps) + (plan.reps == 1 ? " rep" : " reps") + " of " +
                     format_bytes(static_cast<double>(plan.bytes)) + ": " + seconds_text(plan.estimate_seconds) +
                     "); allowed: >= " + seconds_text(plan.estimate_seconds) + too_small_alternatives(plan, o));
}

namespace {

// "a" or "first-last": member indices, first <= last < members.
bool read_member_range(const std::string& text, int members, int& first, int& last) {
  const std::size_t dash = text.find('-');
  std::uint64_t a = 0, b = 0;
  if (read_whole_number(text.substr(0, dash), a) != NumberRead::Ok) return false;
  b = a;
  if (dash != std::string::npos && read_whole_number(text.substr(dash + 1), b) != NumberRead::Ok) return false;
  if (a > b || b >= static_cast<std::uint64_t>(members)) return false;
  first = static_cast<int>(a);
  last = static_cast<int>(b);
  return true;
}

std::string member_range_text(int first, int last) {
  return first == last ? std::to_string(first) : std::to_string(first) + "-" + std::to_string(last);
}

}  // namespace

SlowPair parse_slow_pair(const std::string& text, int members) {
  const std::string allowed = "; allowed: a,b,factor with members (or ranges first-last of members) 0.." +
                              std::to_string(members - 1) + ", at least one pair a != b, and factor 1..1000";
  const std::vector<std::string> parts = split_comma_list(text);
  SlowPair slow;
  double factor = 0;
  const bool read = parts.size() == 3 && read_member_range(parts[0], members, slow.from, slow.from_last) &&
                    read_member_range(parts[1], members, slow.to, slow.to_last) &&
                    read_real_number(parts[2], factor) == NumberRead::Ok && factor >= 1 && factor <= 1000;
  // Two equal single members slow nothing: a mistake, not a hook.
  const bool one_self_pair = slow.from == slow.from_last && slow.to == slow.to_last && slow.from == slow.to;
  if (!read || one_self_pair)
    throw UsageError(std::string(kSlowPairEnvironment) + " (a test hook): " + quoted_input(text) + " is not a pair" +
                     allowed);
  slow.factor = factor;
  return slow;
}

LinksPlan plan_links(const LinksOptions& o, const RankLayout& layout) {
  LinksPlan plan;
  std::vector<int> nodes = layout.node_of_rank;
  if (nodes.size() != static_cast<std::size_t>(layout.size)) nodes.assign(static_cast<std::size_t>(layout.size), 0);
  plan.member_ranks = member_ranks(nodes);
  plan.every_rank = std::set<int>(nodes.begin(), nodes.end()).size() <= 1;
  check_memory(o, layout, plan.every_rank);
  plan.bytes_auto = !o.bytes;
  plan.largest_bytes = std::min(kLargestAutoBytes, memory_limit_bytes(o.window, layout, plan.every_rank));
  // Ranks of one host stand for nodes over shared memory: no socket buffers
  // to outgrow, and on shared cores the probe's figures are mostly the
  // scheduler's (8 ranks on 2 loaded cores chose 25 MiB messages).
  if (plan.every_rank) plan.largest_bytes = std::min(plan.largest_bytes, kLargestOneHostBytes);
  plan.bytes = o.bytes ? *o.bytes : std::min(plan.largest_bytes, layout.quick ? kUnprobedQuickBytes : kUnprobedBytes);
  plan.reps = o.reps;
  plan.window = o.window;
  plan.latency = o.latency;
  // The deprecated --links.max-time, when given, is a tighter budget for links alone.
  plan.budget_seconds = layout.time_budget_seconds;
  plan.budget_flag = "--time-budget";
  if (o.max_time_seconds && (plan.budget_seconds <= 0 || *o.max_time_seconds < plan.budget_seconds)) {
    plan.budget_seconds = *o.max_time_seconds;
    plan.budget_flag = o.flag(&LinksOptions::max_time_seconds);
  }
  if (o.max_time_seconds) plan.deprecated_flag = o.flag(&LinksOptions::max_time_seconds);
  plan.topology = o.topology;
  plan.tree = plan.topology.empty() ? LinksTopology{nullptr, "no switch tree"}
                                    : topology_from_file(o.flag(&LinksOptions::topology), plan.topology);
  // After the options: a bad value is named even in a run too small to measure.
  if (plan.members() < 2)
    throw UsageError("--tests links: needs at least 2 nodes (or 2 ranks on one host); this run has 1 rank");
  fit_links_to_budget(plan, o);
  plan.slow = slow_pair_from_environment(plan.members());
  return plan;
}

void refit_links_to_probe(LinksPlan& plan, const LinksOptions& o, const LinkProbe& probe, const MachineSpeed& speed) {
  if (!probe.done()) return;
  const double assumed = plan.estimate_seconds;
  plan.reps = o.reps;  // from the options again: the assumed links may have lowered them
  if (plan.bytes_auto) {
    const SizeChoice choice = choose_message_bytes(probe, plan.largest_bytes);
    plan.bytes = plan.probed_bytes = choice.message_bytes;
    plan.size_reason = choice.why;
  } else {
    plan.bytes = *o.bytes;
  }
  plan.model = LinkModel{probe,
                         speed.thread_memory_Bps,
                         speed.first_touch_Bps,
                         speed.rank_barrier_seconds,
                         kStoreSeconds};
  plan.assumed_estimate_seconds = assumed;
  fit_links_to_budget(plan, o);
}

LinksPlan plan_links(const Config& config, const RankLayout& layout) {
  return plan_links(links_schema().read(config, layout.quick), layout);
}

std::string describe_links(const LinksPlan& p) {
  const int n = p.members(), rounds = model::pair_rounds(n);
  std::string text = std::to_string(n) + (p.every_rank ? " ranks (one host: each rank stands for a node), " : " nodes, ") +
                     std::to_string(rounds) + (rounds == 1 ? " round" : " rounds") + " of pairs x " +
                     std::to_string(p.reps) + " reps x window " + std::to_string(p.window) + " x " +
                     format_bytes(static_cast<double>(p.bytes)) +
                     " each way" + (p.latency ? ", 8 B latency" : ", no latency") + ", estimate " +
                     seconds_text(p.estimate_seconds) +
                     (p.budget_seconds > 0 ? " (limit " + p.budget_flag + " " + seconds_text(p.budget_seconds) + ")"
                                           : " (no --time-budget)");
  if (!p.chosen.empty()) text += "; to fit it: " + p.chosen;
  if (p.assumed_estimate_seconds >= 0) {
    text += "; link probe: " + probe_text(p.model.probe);
    if (p.bytes_auto) text += "; size auto: " + p.size_reason;
    text += "; assumed links would say " + seconds_text(p.assumed_estimate_seconds);
  } else if (p.bytes_auto) {
    text += "; size auto without a link probe";
  }
  if (!p.deprecated_flag.empty()) text += "; " + p.deprecated_flag + " is deprecated: use --time-budget";
  if (!p.tree.source.empty()) text += "; " + p.tree.source;
  if (p.slow.active())
    text += "; TEST HOOK " + std::string(kSlowPairEnvironment) + "=" + member_range_text(p.slow.from, p.slow.from_last) +
            "," + member_range_text(p.slow.to, p.slow.to_last) + "," + factor_text(p.slow.factor);
  return text;
}

}  // namespace bws::links
