// Reads a survey file back and checks what every STREAM survey must hold:
// the root attributes, the metadata tables, /stream/results with 4 kernels
// per rank and type, every row valid, samples beside every row, /checks.
#include <cmath>
#include <iostream>
#include <set>
#include <string>

#include "core/IniFile.hpp"
#include "h5/ResultFile.hpp"

#include "FileChecks.hpp"

using namespace bws::file_checks;

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "--aborted") {
    // A rank failed in prepare(): the file says so and keeps what came before.
    const int ranks = std::stoi(argv[3]);
    const auto file = bws::h5::ResultReader::open(argv[2]);
    check(file.attribute_text("/", "status") == "aborted", "status is aborted");
    check(!file.attribute_text("/", "finished_utc").empty(), "finished_utc set");
    check(file.attribute_text("/", "completed_phases").empty(), "no completed phase");
    check(static_cast<int>(file.read_table("ranks/table").rows()) == ranks, "/ranks/table kept");
    check(file.exists("/config"), "/config kept");
    check(!file.exists("/stream/results"), "no /stream/results");
    if (failures) return 1;
    std::cout << "aborted survey file OK\n";
    return 0;
  }
  if (argc != 3) {
    std::cerr << "usage: check_survey_file FILE RANKS | check_survey_file --aborted FILE RANKS\n";
    return 2;
  }
  const int ranks = std::stoi(argv[2]);
  const auto file = bws::h5::ResultReader::open(argv[1]);

  check(file.attribute_text("/", "status") == "complete", "status is complete");
  check(file.attribute_int("/", "n_ranks") == ranks, "n_ranks attribute");
  check(file.attribute_int("/", "n_nodes") == 1, "n_nodes attribute (one machine)");
  for (const char* a : {"schema_version", "tool_version", "git_commit", "created_utc", "finished_utc", "command_line",
                        "mpi_library", "hwloc_version", "compiler"})
    check(!file.attribute_text("/", a).empty(), std::string("root attribute ") + a);
  check(file.attribute_text("/", "completed_phases") == "stream", "completed_phases");
  check(!file.attribute_text("/provenance", "host").empty(), "/provenance host");

  // /config reads back as INI.
  const auto ini = bws::parse_ini(file.read_text("/config"), "/config");
  bool has_stream_key = false;
  for (const auto& e : ini) has_stream_key |= e.key == "stream.elements" && e.value == "2M";
  check(has_stream_key, "/config holds stream.elements = 2M");

  const auto nodes = file.read_table("nodes/table");
  check(nodes.rows() == 1, "/nodes/table has one row");
  const std::string host = nodes.get_string(0, "host");
  check(nodes.get_int(0, "n_ranks") == ranks, "/nodes/table n_ranks");
  check(file.read_text("/nodes/" + host + "/topology_xml").find("<topology") != std::string::npos,
        "/nodes/<host>/topology_xml");

  const auto rank_table = file.read_table("ranks/table");
  check(static_cast<int>(rank_table.rows()) == ranks, "/ranks/table has a row per rank");
  const auto threads = file.read_table("ranks/threads");
  check(threads.rows() >= static_cast<std::size_t>(ranks), "/ranks/threads has a row per thread");

  const auto results = file.read_table("stream/results");
  check(static_cast<int>(results.rows()) == 4 * ranks, "/stream/results has 4 kernels x ranks rows");
  std::set<std::string> kernels;
  std::set<long> seen_ranks;
  for (std::size_t r = 0; r < results.rows(); ++r) {
    kernels.insert(results.get_string(r, "kernel"));
    seen_ranks.insert(results.get_int(r, "rank"));
    check(results.get_int(r, "valid") == 1, "row " + std::to_string(r) + " valid");
    const double bw = results.get_double(r, "bandwidth");
    check(bw > 1e8 && bw < 1e13, "row " + std::to_string(r) + " plausible bandwidth");
    check(std::abs(results.get_double(r, "bytes") / results.get_double(r, "t_min") - bw) <= 1e-6 * bw,
          "bandwidth = bytes / t_min");
    check(results.samples(r).size() == static_cast<std::size_t>(results.get_int(r, "reps")),
          "samples beside row " + std::to_string(r));
  }
  check(kernels == std::set<std::string>{"Copy", "Scale", "Add", "Triad"}, "the four STREAM kernels");
  check(static_cast<int>(seen_ranks.size()) == ranks, "every rank reported");

  const auto node_rows = file.read_table("stream/nodes");
  check(node_rows.rows() == 4, "/stream/nodes has 4 rows for one node");
  const auto checks = file.read_table("checks");
  check(checks.rows() > 0, "/checks has rows");
  for (std::size_t r = 0; r < checks.rows(); ++r)
    if (checks.get_string(r, "kind") == "validation")
      check(checks.get_int(r, "passed") == 1, "validation check " + checks.get_string(r, "subject"));

  if (failures) return 1;
  std::cout << "survey file OK: " << results.rows() << " STREAM rows from " << ranks << " ranks\n";
  return 0;
}
