#pragma once
// pmbw's stats.txt format: one line per measured point, "RESULT" then
// tab-separated key=value pairs with pmbw's keys (datetime, host, version,
// funcname, nthreads, areasize, threadsize, testsize, repeats, testvol,
// testaccess, time, bandwidth, rate), so pmbw's stats2gnuplot plots
// bwsurvey's results. One line per /pmbw/results row, timed by its best
// sample (pmbw keeps one sample per point). Reals are written as pmbw.cc
// writes them (an ostream at precision 20: printf's %.20g), so a line is
// pmbw's and parses back to the same values.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/Config.hpp"
#include "core/Table.hpp"
#include "core/TableExporter.hpp"

namespace bws::pmbw {

struct PmbwStatsLine {
  std::string datetime, host, version, funcname;
  std::uint64_t nthreads = 0, areasize = 0, threadsize = 0, testsize = 0, repeats = 0, testvol = 0, testaccess = 0;
  double time = 0, bandwidth = 0, rate = 0;
  bool operator==(const PmbwStatsLine&) const = default;
};

std::string format_stats_line(const PmbwStatsLine& line);  // without the newline
// Throws std::invalid_argument naming the key for a line that is not a
// RESULT line or lacks or mangles a key.
PmbwStatsLine parse_stats_line(const std::string& text);
// The lines of a /pmbw/results table.
std::vector<PmbwStatsLine> stats_lines_from_results(const Table& results, const std::string& datetime,
                                                    const std::string& version);

// --pmbw.stats FILE: made on rank 0 at planning time, where it only checks
// the path (SideFile.hpp: a UsageError when the file exists without --force
// or cannot be written); the file is made when the run starts, appended on a
// resume. FILE with %h (host) and %r (rank) in its name: one file per host
// and rank (PmbwStatsFiles.hpp), each made when its rank's rows arrive; a
// fresh run without --force refuses when any file of the pattern exists.
// Returns nullptr when the option is empty.
std::unique_ptr<TableExporter> make_pmbw_stats_exporter(const Config& config);

}  // namespace bws::pmbw
