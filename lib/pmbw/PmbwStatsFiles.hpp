#pragma once
// --pmbw.stats with a pattern: one stats file per host and rank, so pmbw's
// stats2gnuplot (which refuses a file with several hosts and keeps only the
// first of two lines for the same routine, thread count and size) plots
// every rank. In the file name, %h is the host (characters outside
// [A-Za-z0-9._-] as '_'), %r the rank, %% a '%'; any other %x is a usage
// error naming --pmbw.stats. A path without %h and %r is one file holding
// every rank's lines (PmbwStats.hpp).
#include <cstdint>
#include <string>

namespace bws::pmbw {

// Whether `path` names per-rank files (holds %h or %r). UsageError
// "<flag>: ..." for an unknown %x, a lone % at the end, or %h/%r in the
// directory part.
bool is_stats_pattern(const std::string& flag, const std::string& path);
// The file of one host and rank.
std::string stats_file_of(const std::string& pattern, const std::string& host, std::int64_t rank);
// Whether a file name (no directory) is one the pattern's file name makes.
bool matches_stats_pattern(const std::string& pattern, const std::string& file_name);

}  // namespace bws::pmbw
