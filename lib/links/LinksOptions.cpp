#include "links/LinksOptions.hpp"

namespace bws::links {

const OptionSchema<LinksOptions>& links_schema() {
  static const OptionSchema<LinksOptions> schema({
      // auto under --quick too: a size the probe did not choose can time the
      // kernel's socket buffers instead of the link (links/LinksProbe.hpp).
      bind_option(bytes_option("links.bytes", "auto", 8, std::uint64_t{1} << 30,
                               "links: message size of the bandwidth exchanges (K/M/G = x1024); 'auto' = chosen by "
                               "a probe of the links at the start of the run, large enough that buffering in the "
                               "network stack is at most 10 % of a window's time; --time-budget may choose a "
                               "smaller one")
                      .or_auto(),
                  &LinksOptions::bytes),
      bind_option(whole_option("links.reps", "5", 1, 1000, "repetitions",
                               "links: timed repetitions of each pair's window each way, the best counts; "
                               "--time-budget may choose fewer")
                      // Not fewer in --quick: with ranks sharing cores a pair's best of 2
                      // windows fell below 0.75 x its node's median in 4 of 10 runs, best
                      // of 5 in 1 of 10 (64 KiB windows cost microseconds each).
                      .quick("5"),
                  &LinksOptions::reps),
      bind_option(whole_option("links.window", "8", 1, 256, "messages",
                               "links: messages in flight per pair and direction (non-blocking, as mpiGraph's "
                               "window)")
                      .quick("4"),
                  &LinksOptions::window),
      bind_option(flag_option("links.latency", true,
                              "links: also measure an 8-byte latency per ordered pair (half the round trip "
                              "of 8-byte ping-pongs)"),
                  &LinksOptions::latency),
      // Before --time-budget applied to links it had its own budget; the
      // option stays for old scripts and says so in the plan line.
      bind_option(real_option("links.max-time", "auto", 0, 1e6, "seconds",
                              "links (deprecated: use --time-budget, which links honours as every test does): a "
                              "tighter budget for links alone; auto = --time-budget")
                      .above_min()
                      .or_auto(),
                  &LinksOptions::max_time_seconds),
      bind_option(text_option("links.topology", "",
                              "links: a Slurm topology.conf naming the switch tree (for uplink verdicts); empty: "
                              "none"),
                  &LinksOptions::topology),
  });
  return schema;
}

}  // namespace bws::links
