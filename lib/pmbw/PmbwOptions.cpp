#include "pmbw/PmbwOptions.hpp"

namespace bws::pmbw {

namespace {

OptionField<PmbwOptions> routines_field() {
  return bind_option(text_option("pmbw.routines", "all",
                                 "pmbw: routines to run: all (every routine this CPU supports), a comma list of pmbw "
                                 "names (ScanRead64PtrUnrollLoop, PermRead64UnrollLoop ...), ~TEXT for the names "
                                 "containing TEXT, or 'list' to print the routines and exit"),
                     &PmbwOptions::routines);
}

}  // namespace

const OptionSchema<PmbwOptions>& pmbw_listing_schema() {
  static const OptionSchema<PmbwOptions> schema({routines_field()});
  return schema;
}

const OptionSchema<PmbwOptions>& pmbw_schema() {
  constexpr std::uint64_t kMaxBytes = UINT64_C(1) << 50;
  static const OptionSchema<PmbwOptions> schema({
      routines_field(),
      {bytes_option("pmbw.min-bytes", "1K", 1, kMaxBytes, "pmbw: smallest array size of pmbw's table to run (K/M/G = x1024)")
           .note("(up to --pmbw.max-bytes)")
           .alias("pmbw.min-size"),
       [](PmbwOptions& o, const OptionValue& v) {
         o.min_bytes = v.whole;
         o.min_bytes_given = v.given;
       },
       [](const PmbwOptions& o) -> const void* { return &o.min_bytes; }},
      bind_option(bytes_option("pmbw.max-bytes", "auto", 1, kMaxBytes,
                               "pmbw: largest array size per rank; 'auto' = 1 GiB, lowered until all ranks of a node "
                               "need at most 40% of its memory (--quick: 4x the last-level cache)")
                      .or_auto()
                      .note("(from --pmbw.min-bytes up to what fits in 80% of the node's memory)")
                      .alias("pmbw.max-size"),
                  &PmbwOptions::max_bytes),
      bind_option(text_option("pmbw.threads", "auto",
                              "pmbw: thread counts, each its own pinned core: auto (1 .. the rank's threads), a range "
                              "1..N or a list 1,2,4")
                      .note("counts from 1 to the rank's threads (--threads)"),
                  &PmbwOptions::threads),
      bind_option(flag_option("pmbw.quadratic", false,
                              "pmbw: double the thread count (1, 2, 4, ... and the largest) instead of counting up"),
                  &PmbwOptions::quadratic),
      bind_option(real_option("pmbw.min-time", "1.0", 1e-4, 3600, "seconds",
                              "pmbw: seconds one sample must last at least; the repeat count grows until it does")
                      .quick("0.02"),
                  &PmbwOptions::min_time_seconds),
      bind_option(whole_option("pmbw.reps", "3", 1, 1000, "repetitions",
                               "pmbw: timed repetitions per routine, size and thread count (min, median and max kept)")
                      .alias("pmbw.samples"),
                  &PmbwOptions::reps),
      bind_option(whole_option("pmbw.seed", "1", 0, UINT64_MAX, "",
                               "pmbw: seed of the random cycles the Perm routines walk (recorded with the results)"),
                  &PmbwOptions::seed),
      bind_option(text_option("pmbw.stats", "",
                              "pmbw: also write pmbw's RESULT lines (stats.txt format, for pmbw's stats2gnuplot) to "
                              "this file; %h (host) and %r (rank) in the file name give one file per host and rank "
                              "(stats2gnuplot plots one host's file), %% a '%'; existing files need --force; "
                              "empty: none"),
                  &PmbwOptions::stats_path),
  });
  return schema;
}

}  // namespace bws::pmbw
