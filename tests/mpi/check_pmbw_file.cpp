// Reads a pmbw survey file back (check_pmbw_file FILE STATS RANKS):
// /pmbw/results has a row per rank, routine, thread count and size of the
// plan (the same on every rank), each valid, with bandwidth = bytes / t_min
// and a sample per --pmbw.reps; /pmbw/nodes has the node; the stats file
// holds one RESULT line per row with the same values.
#include <algorithm>
#include <cmath>
#include <vector>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "h5/ResultFile.hpp"
#include "pmbw/PmbwStats.hpp"

#include "FileChecks.hpp"

using namespace bws::file_checks;

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: check_pmbw_file FILE STATS RANKS\n";
    return 2;
  }
  const int ranks = std::stoi(argv[3]);
  const auto file = bws::h5::ResultReader::open(argv[1]);
  check(file.attribute_text("/", "status") == "complete", "status is complete");
  const auto results = file.read_table("pmbw/results");
  check(results.rows() > 0, "/pmbw/results has rows");

  // Every rank measured the same (routine, threads, size) grid.
  std::map<long, std::set<std::tuple<std::string, long, long>>> grid;
  std::set<std::string> routines;
  std::set<long> sizes, threads;
  for (std::size_t r = 0; r < results.rows(); ++r) {
    const std::string routine = results.get_string(r, "routine");
    grid[results.get_int(r, "rank")].insert({routine, results.get_int(r, "threads"), results.get_int(r, "area_bytes")});
    routines.insert(routine);
    sizes.insert(results.get_int(r, "area_bytes"));
    threads.insert(results.get_int(r, "threads"));
    const std::string row = "row " + std::to_string(r) + " " + routine;
    check(results.get_int(r, "valid") == 1, row + " valid");
    check(results.get_int(r, "reps") == 3, row + " has 3 reps");
    check(close(results.get_double(r, "bandwidth"),
                static_cast<double>(results.get_int(r, "bytes")) / results.get_double(r, "t_min"), 1e-12),
          row + " bandwidth = bytes / t_min");
    check(results.get_int(r, "bytes") == results.get_int(r, "test_bytes") * results.get_int(r, "repeats"),
          row + " bytes = test_bytes x repeats");
    // The calibrated sample lasted the minimum; later ones at the same count may be shorter.
    check(results.get_double(r, "t_max") >= 0.002, row + " a sample lasts at least --pmbw.min-time");
    check(results.samples(r).size() >= 3, row + " samples kept");
  }
  check(static_cast<int>(grid.size()) == ranks, "rows from every rank");
  check(routines.count("ScanRead64PtrUnrollLoop") && routines.count("ScanWrite64PtrSimpleLoop") &&
            routines.count("PermRead64UnrollLoop"),
        "the routines asked for");
  for (const auto& [rank, cells] : grid)
    check(cells.size() == routines.size() * sizes.size() * threads.size(),
          "rank " + std::to_string(rank) + ": every routine x size x thread count (" + std::to_string(cells.size()) + ")");
  check(sizes.size() >= 5 && *sizes.begin() == 1024 && *sizes.rbegin() == 8 << 20, "sizes 1 KiB .. 8 MiB");

  const auto nodes = file.read_table("pmbw/nodes");
  check(nodes.rows() == 1, "/pmbw/nodes: one node");
  if (nodes.rows() == 1) {
    check(nodes.get_int(0, "ranks") == ranks, "/pmbw/nodes counts the ranks");
    check(nodes.get_double(0, "scan_l1_Bps") > 0, "an L1 plateau");
    check(nodes.get_double(0, "perm_ram_access_seconds") > 0, "a PermRead latency");
  }

  // The stats file: one RESULT line per row, the same numbers.
  std::ifstream in(argv[2]);
  std::vector<bws::pmbw::PmbwStatsLine> lines;
  std::string text;
  std::size_t count = 0;
  while (std::getline(in, text)) {
    try {
      const bws::pmbw::PmbwStatsLine l = bws::pmbw::parse_stats_line(text);
      lines.push_back(l);
      ++count;
    } catch (const std::exception& e) {
      check(false, std::string("stats line parses: ") + e.what() + ": " + text);
    }
  }
  check(count == results.rows(), "one RESULT line per row (" + std::to_string(count) + " lines, " +
                                     std::to_string(results.rows()) + " rows)");
  // Each row has its own line (ranks on one host share the host key, so a
  // line is matched on all its values and used once).
  for (std::size_t r = 0; r < results.rows(); ++r) {
    const auto it = std::find_if(lines.begin(), lines.end(), [&](const bws::pmbw::PmbwStatsLine& l) {
      return l.host == results.get_string(r, "host") && l.funcname == results.get_string(r, "routine") &&
             static_cast<long>(l.nthreads) == results.get_int(r, "threads") &&
             static_cast<long>(l.areasize) == results.get_int(r, "area_bytes") &&
             static_cast<long>(l.threadsize) == results.get_int(r, "thread_bytes") &&
             static_cast<long>(l.testsize) == results.get_int(r, "test_bytes") &&
             static_cast<long>(l.repeats) == results.get_int(r, "repeats") &&
             static_cast<long>(l.testvol) == results.get_int(r, "bytes") &&
             static_cast<long>(l.testaccess) == results.get_int(r, "accesses") && l.time == results.get_double(r, "t_min") &&
             l.bandwidth == results.get_double(r, "bandwidth") && l.rate == results.get_double(r, "access_seconds");
    });
    check(it != lines.end(), "a RESULT line with the values of row " + std::to_string(r));
    if (it != lines.end()) lines.erase(it);
  }
  if (failures) return 1;
  std::cout << "pmbw file OK: " << results.rows() << " rows, " << count << " RESULT lines, " << ranks << " ranks\n";
  return 0;
}
